import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client, type ClientOptions } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { stdioClientTransport } from "mcpkit/stdio";
import { sleep, until, within } from "../../packages/mcpkit/test/stdio/helpers.js";

/**
 * Plumbing for the workspace server tests: real temp directories, the real `mcpkit`
 * binary (packages/cli/dist: build first with `npx tsc -b packages/mcpkit packages/cli`),
 * bounded waits, and cleanup of every process and directory a test made.
 */

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const MCPKIT_BIN = join(REPO_ROOT, "packages/cli/bin/mcpkit.js");

const BETTER_SQLITE3 = createRequire(import.meta.url).resolve("better-sqlite3");

/** Whether better-sqlite3 (a native module, built for one Node.js ABI) loads on `node`. */
function sqliteLoadsOn(node: string): boolean {
  try {
    const probe = `new (require(${JSON.stringify(BETTER_SQLITE3)}))(":memory:").close()`;
    execFileSync(node, ["-e", probe], { stdio: "ignore", timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * The Node.js that runs the server under test. npx puts the repo's Node 24 first on PATH,
 * while better-sqlite3 is built for the Node.js that installed it (20 here), so the
 * server runs on the first Node.js the native module loads on: this one, or another on PATH.
 */
export const SERVER_NODE: string = (() => {
  const candidates = [
    process.execPath,
    ...(process.env.PATH ?? "")
      .split(delimiter)
      .filter((dir) => dir && !dir.includes("node_modules"))
      .map((dir) => join(dir, "node")),
    "/usr/bin/node",
    "/usr/local/bin/node",
  ];
  return candidates.find((node) => existsSync(node) && sqliteLoadsOn(node)) ?? process.execPath;
})();

/** Creates a SQLite database file from SQL, on SERVER_NODE (this process may not load the module). */
export function seedDatabase(file: string, sql: string): void {
  const script = `const D = require(process.argv[1]); const db = new D(process.argv[2]); db.exec(require("fs").readFileSync(0, "utf8")); db.close();`;
  execFileSync(SERVER_NODE, ["-e", script, BETTER_SQLITE3, file], { input: sql, stdio: ["pipe", "ignore", "pipe"] });
}

export function assertBuilt(): void {
  if (!existsSync(join(REPO_ROOT, "packages/servers/dist/workspace/index.js")))
    throw new Error(
      "packages/servers/dist is missing the workspace server: run `npx tsc -b packages/mcpkit packages/servers packages/cli`",
    );
}

// The shared waits of the library's process tests.
export { sleep, within };

/** Waits until `probe` gives something (the library tests' `until`); fails after `ms`. */
export const waitFor = until;

/** Waits until an async check holds; fails after `ms`. */
export async function eventually(check: () => Promise<boolean>, what: string, ms = 5000): Promise<void> {
  await until(check, what, ms);
}

/** 1×1 PNG. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC",
  "base64",
);

export interface Fixture {
  /** The temp directory holding everything (realpath). */
  dir: string;
  /** The directory given as --root. */
  root: string;
  /** A sibling of the root, never to be reached. */
  outside: string;
  cleanup(): void;
}

/**
 * A root with text, binary, an image, a 1 GiB sparse file, a FIFO and symbolic links
 * (in and out of the root), next to an `outside` directory holding a secret.
 */
export function makeFixture(): Fixture {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "mcpkit-ws-test-")));
  const root = join(dir, "root");
  const outside = join(dir, "outside");
  mkdirSync(join(root, "src", "lib"), { recursive: true });
  mkdirSync(join(root, "docs"), { recursive: true });
  mkdirSync(join(root, "node_modules", "dep"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.txt"), "TOP SECRET\n");
  writeFileSync(join(root, "README.md"), "# Demo\n\nA workspace for tests.\n");
  writeFileSync(
    join(root, "src", "index.ts"),
    'import { greet } from "./lib/greet.js";\n\nconsole.log(greet("world"));\n',
  );
  writeFileSync(
    join(root, "src", "lib", "greet.ts"),
    'export function greet(name: string): string {\n  return "Hello, " + name + "!";\n}\n',
  );
  writeFileSync(join(root, "docs", "guide.md"), "# Guide\n\nSay Hello to everyone.\n");
  writeFileSync(join(root, "node_modules", "dep", "index.js"), "module.exports = 'Hello';\n");
  writeFileSync(join(root, "image.png"), PNG);
  writeFileSync(join(root, "data.bin"), Buffer.from([0, 1, 2, 3, 255, 254, 0, 7]));
  // 1 GiB that takes no disk space: a read must be refused on the size, not attempted.
  writeFileSync(join(root, "big.bin"), "");
  truncateSync(join(root, "big.bin"), 1024 ** 3);
  execFileSync("mkfifo", [join(root, "fifo")]);
  symlinkSync("../outside", join(root, "escape"));
  symlinkSync("../outside/secret.txt", join(root, "secret-link"));
  symlinkSync("src/index.ts", join(root, "inner-link.ts"));
  return { dir, root, outside, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every entry under `dir` with its type, size and (for small files) content hash: to prove nothing changed. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (path: string, rel: string) => {
    for (const name of readdirSync(path).sort()) {
      const full = join(path, name);
      const key = rel ? `${rel}/${name}` : name;
      const info = lstatSync(full);
      if (info.isDirectory()) {
        out[key] = "dir";
        visit(full, key);
      } else if (info.isFile() && info.size < 10 * 1024 * 1024) {
        out[key] = `file ${info.size} ${createHash("sha256").update(readFileSync(full)).digest("hex")}`;
      } else {
        out[key] = `${info.isSymbolicLink() ? "link" : info.isFIFO() ? "fifo" : "file"} ${info.size} ${info.mtimeMs}`;
      }
    }
  };
  visit(dir, "");
  return out;
}

export interface Connected {
  client: Client;
  /** The server's process id (stdio only). */
  pid?: number;
  /** stderr of the server process, as far as it went. */
  stderr(): string;
  close(): Promise<void>;
}

const live = new Set<() => Promise<void>>();

/** Closes whatever a test left open (call from afterEach/afterAll). */
export async function closeAll(): Promise<void> {
  const closers = [...live];
  live.clear();
  await Promise.all(closers.map((close) => close().catch(() => undefined)));
}

function forceKill(pid: number | undefined): void {
  if (!pid) return;
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/** `mcpkit serve workspace <args>` over stdio (on `node`, SERVER_NODE by default), driven by mcpkit's own Client. */
export async function connectStdio(
  args: string[],
  options: Partial<ClientOptions> = {},
  node = SERVER_NODE,
): Promise<Connected> {
  assertBuilt();
  const transport = stdioClientTransport({
    command: node,
    args: [MCPKIT_BIN, "serve", "workspace", ...args],
    stderr: "pipe",
    killTimeoutMs: 500,
  });
  let stderr = "";
  const client = new Client({ name: "workspace-test", version: "0.0.0", timeoutMs: 10_000, ...options });
  const close = async () => {
    live.delete(close);
    await within(client.close(), 5000, "client.close()").catch(() => undefined);
    forceKill(transport.pid);
  };
  live.add(close);
  try {
    await within(client.connect(transport), 10_000, "connect to mcpkit serve workspace");
  } catch (error) {
    await close();
    throw error;
  }
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  return { client, ...(transport.pid !== undefined && { pid: transport.pid }), stderr: () => stderr, close };
}

export interface HttpServer {
  url: URL;
  child: ChildProcess;
  stderr(): string;
  close(): Promise<void>;
}

/** `mcpkit serve workspace --port 0 <args>`: resolves with the /mcp URL it prints. */
export async function startHttp(args: string[]): Promise<HttpServer> {
  assertBuilt();
  const child = spawn(SERVER_NODE, [MCPKIT_BIN, "serve", "workspace", "--port", "0", ...args], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const close = async () => {
    live.delete(close);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await within(exited, 5000, "the HTTP server to exit").catch(() => child.kill("SIGKILL"));
  };
  live.add(close);
  const match = await within(
    waitFor(
      () => /serving MCP on (http:\/\/\S+)\/mcp/.exec(stderr) ?? (child.exitCode !== null && ["", ""]),
      "the URL",
    ),
    10_000,
    "mcpkit serve workspace --port 0 to listen",
  ).catch(async (error) => {
    await close();
    throw error;
  });
  if (!match[1]) throw new Error(`mcpkit serve workspace exited: ${stderr}`);
  return { url: new URL(`${match[1]}/mcp`), child, stderr: () => stderr, close };
}

/** mcpkit's Client over Streamable HTTP. */
export async function connectHttp(url: URL, options: Partial<ClientOptions> = {}): Promise<Connected> {
  const client = new Client({ name: "workspace-http-test", version: "0.0.0", timeoutMs: 10_000, ...options });
  const close = async () => {
    live.delete(close);
    await within(client.close(), 5000, "client.close()").catch(() => undefined);
  };
  live.add(close);
  await within(client.connect(streamableHttpClientTransport(url)), 10_000, "connect over HTTP");
  return { client, stderr: () => "", close };
}

/** Runs the binary to completion (for option errors): exit code and stderr. */
export function runCli(args: string[], timeoutMs = 10_000): Promise<{ code: number | null; stderr: string }> {
  assertBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(SERVER_NODE, [MCPKIT_BIN, ...args], { stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`mcpkit ${args.join(" ")} did not exit within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
    child.stdin.end();
  });
}

/** The loose shape of a tool result, for assertions. */
export interface ToolResult {
  content: { type: string; text?: string; data?: string; mimeType?: string; resource?: Record<string, unknown> }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** The text of every text block, joined. */
export const textOf = (result: unknown) =>
  (result as ToolResult).content
    .filter((b) => b.type === "text")
    .map((b) => b.text)
    .join("\n");

/** Calls a tool and returns its result, typed loosely. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await client.callTool(name, args)) as unknown as ToolResult;
}

/** A git repository with two authors, a feature branch and uncommitted changes; commits dated July 2024. */
export function makeGitRepo(dir: string): void {
  const git = (args: string[], date = "2024-07-01T12:00:00Z") =>
    execFileSync("git", args, {
      cwd: dir,
      env: {
        ...process.env,
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
  mkdirSync(join(dir, "docs"), { recursive: true });
  git(["init", "-q", "-b", "main"]);
  git(["config", "user.email", "ada@example.com"]);
  git(["config", "user.name", "Ada"]);
  writeFileSync(join(dir, "app.js"), "console.log('v1');\n");
  git(["add", "."]);
  git(["commit", "-q", "-m", "feat: first version"]);
  writeFileSync(join(dir, "docs", "notes.md"), "# Notes\n");
  git(["add", "."]);
  git(
    ["-c", "user.name=Grace", "-c", "user.email=grace@example.com", "commit", "-q", "-m", "docs: add notes"],
    "2024-07-02T12:00:00Z",
  );
  git(["checkout", "-q", "-b", "feature/login"]);
  writeFileSync(join(dir, "login.js"), "export const login = () => true;\n");
  git(["add", "."]);
  git(["commit", "-q", "-m", "feat: login"], "2024-07-03T12:00:00Z");
  git(["checkout", "-q", "main"]);
  writeFileSync(join(dir, "app.js"), "console.log('v2');\n");
  writeFileSync(join(dir, "untracked.txt"), "new\n");
}
