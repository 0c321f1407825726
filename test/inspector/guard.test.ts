import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Inspector, startInspector } from "../../packages/cli/src/inspector/index.js";
import { KEY_HEADER } from "./api.js";

// Who may use the inspector: the page that opened the printed URL (the one-time token,
// exchanged for a cookie and a key the page keeps), through this machine's own names,
// from the inspector's own page. Each refusal is paired with the same request made right,
// so the check is what refuses it.

let inspector: Inspector;
let cookie: string;
let key: string;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request (fetch may not set Host): status, headers and body. */
function send(
  path: string,
  {
    method = "GET",
    headers = {},
    body,
    port = inspector.port,
  }: { method?: string; headers?: Record<string, string>; body?: string; port?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The one-time URL, opened as the browser does: the cookie, and the key the redirect's fragment carries. */
async function exchange(url: string): Promise<{ cookie: string; key: string }> {
  const { port, pathname, search } = new URL(url);
  const exchanged = await send(`${pathname}${search}`, { port: Number(port) });
  expect(exchanged.status).toBe(303);
  const location = String(exchanged.headers.location);
  expect(location).toMatch(/^\/#key=[\w-]{32}$/);
  const setCookie = String(exchanged.headers["set-cookie"]);
  expect(setCookie).toMatch(/; HttpOnly; SameSite=Strict; Path=\/$/);
  return { cookie: setCookie.split(";")[0] as string, key: location.slice(6) };
}

const ours = (port = inspector.port) => `http://127.0.0.1:${port}`;

/** POST /api/OP as the page sends it; each part may be left out or replaced. */
const op = (
  name: string,
  body: unknown = {},
  parts: { cookie?: string; key?: string; origin?: string; port?: number } = {},
) => {
  const { cookie: c = cookie, key: k = key, origin = ours(parts.port), port } = parts;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (c) headers.cookie = c;
  if (k) headers[KEY_HEADER] = k;
  if (origin) headers.origin = origin;
  return send(`/api/${name}`, { method: "POST", headers, body: JSON.stringify(body), ...(port && { port }) });
};

const message = (answer: Answer) => JSON.parse(answer.body).error?.message as string | undefined;

beforeAll(async () => {
  // Nothing listens on port 9 of this machine: the connection fails, which these checks never reach.
  inspector = await startInspector({ target: { kind: "http", url: "http://127.0.0.1:9/mcp", headers: {} } });
  ({ cookie, key } = await exchange(inspector.url));
});

afterAll(() => inspector?.close());

describe("the inspector's guard", () => {
  it("listens on 127.0.0.1 only", () => {
    expect(new URL(inspector.url).hostname).toBe("127.0.0.1");
  });

  it("exchanges the token for a cookie and a key in the fragment, which no request carries", () => {
    expect(cookie).toMatch(/^mcpkit_inspector=[\w-]{32}$/);
    expect(key).toMatch(/^[\w-]{32}$/);
    expect(cookie).not.toContain(key);
  });

  it("refuses a request without the token's cookie with 401", async () => {
    const refused = await send("/app.js");
    expect(refused.status).toBe(401);
    expect(message(refused)).toContain("URL mcpkit inspect printed");
    expect(
      (await send("/api/events", { headers: { cookie: "mcpkit_inspector=guessed", [KEY_HEADER]: key } })).status,
    ).toBe(401);
    expect((await send("/app.js", { headers: { cookie } })).status).toBe(200);
  });

  it("refuses an API request with the cookie but without the page's key with 401 (a stolen cookie drives nothing)", async () => {
    const alone = await op("tools/list", {}, { key: "" });
    expect(alone.status).toBe(401);
    expect(message(alone)).toBe(
      "This page holds no key to this inspector: open a fresh link (press Enter in the terminal of mcpkit inspect)",
    );
    expect((await op("disconnect", {}, { key: "x".repeat(32) })).status).toBe(401);
    expect((await send("/api/events", { headers: { cookie } })).status).toBe(401);
    // The same requests with the key.
    expect((await op("disconnect")).status).toBe(200);
    const events = await fetch(`${ours()}/api/events`, { headers: { cookie, [KEY_HEADER]: key } });
    expect(events.status).toBe(200);
    await events.body?.cancel();
  });

  it("takes the token once: a second use, or a wrong one, gets a page that says how to get a fresh link", async () => {
    const token = new URL(inspector.url).searchParams.get("token") as string;
    for (const path of [`/?token=${token}`, "/?token=wrong"]) {
      const refused = await send(path);
      expect(refused.status).toBe(401);
      expect(refused.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(refused.body).toContain("Press Enter in the terminal where <code>mcpkit inspect</code> runs");
      expect(refused.headers["content-security-policy"]).toContain("default-src 'none'");
    }
    // The bare address in a browser without the cookie: a page too; the API keeps its JSON.
    expect((await send("/", { headers: { accept: "text/html" } })).body).toContain("Open a fresh link");
    expect((await send("/api/events")).headers["content-type"]).toBe("application/json");
  });

  it("makes a fresh link on request: it opens once, and the one before, unused, no longer opens", async () => {
    const first = inspector.freshUrl();
    const second = inspector.freshUrl();
    expect((await send(new URL(first).pathname + new URL(first).search)).status).toBe(401);
    const fresh = await exchange(second);
    expect(fresh.key).toBe(key);
    expect((await send(new URL(second).pathname + new URL(second).search)).status).toBe(401);
  });

  it("refuses a foreign Origin with 403, even with the cookie and the key", async () => {
    const refused = await op("disconnect", {}, { origin: "http://evil.example" });
    expect(refused.status).toBe(403);
    expect(message(refused)).toBe('Origin "http://evil.example" may not use this inspector');
    // Another port of this machine is another origin, though the same site for the cookie.
    expect((await op("disconnect", {}, { origin: ours(inspector.port + 1) })).status).toBe(403);
    expect((await op("disconnect", {}, { origin: "null" })).status).toBe(403);
    expect((await op("disconnect")).status).toBe(200);
  });

  it("refuses a request that changes something without an Origin with 403", async () => {
    expect((await op("disconnect", {}, { origin: "" })).status).toBe(403);
    expect((await op("disconnect")).status).toBe(200);
  });

  it("refuses a foreign Host with 403, even with the cookie (DNS rebinding)", async () => {
    const refused = await send("/app.js", { headers: { cookie, host: `rebound.example:${inspector.port}` } });
    expect(refused.status).toBe(403);
    expect(message(refused)).toContain("is not this inspector's address");
    expect((await send("/app.js", { headers: { cookie, host: `127.0.0.1:${inspector.port + 1}` } })).status).toBe(403);
    expect((await send("/app.js", { headers: { cookie, host: `localhost:${inspector.port}` } })).status).toBe(200);
  });

  it("serves its page under a strict Content-Security-Policy, never framed by another page", async () => {
    const page = await send("/", { headers: { cookie } });
    expect(page.status).toBe(200);
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers["cache-control"]).toBe("no-store");
  });

  it("takes the OAuth callback without the cookie only while a sign-in waits for it", async () => {
    const callback = await send("/oauth/callback?code=x&state=y");
    expect(callback.status).toBe(400);
    expect(callback.body).toContain("No sign-in is waiting");
  });

  it("answers an unknown operation with 404 and a body that is not JSON with 400", async () => {
    expect((await op("nothing")).status).toBe(404);
    const bad = await send("/api/tools/list", {
      method: "POST",
      headers: { cookie, origin: ours(), [KEY_HEADER]: key },
      body: "{",
    });
    expect(bad.status).toBe(400);
  });

  it("tells the page the names of the command line's headers, never their values", async () => {
    const withHeaders = await startInspector({
      target: { kind: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer cli-secret" } },
    });
    try {
      const theirs = await exchange(withHeaders.url);
      const state = await op("disconnect", {}, { ...theirs, port: withHeaders.port });
      expect(JSON.parse(state.body).value.target).toEqual({
        kind: "http",
        url: "http://127.0.0.1:9/mcp",
        headers: ["Authorization"],
      });
      expect(state.body).not.toContain("cli-secret");
    } finally {
      await withHeaders.close();
    }
  });
});

describe("what the page may start (--allow-spawn)", () => {
  const envServer = fileURLToPath(new URL("./fixtures/env-server.mjs", import.meta.url));
  const commandLine = {
    kind: "stdio" as const,
    command: process.execPath,
    args: [envServer],
    env: { CLI_SECRET: "s3cret" },
  };

  /** An inspector of the command line above that lets the page start `node` (by that name) only. */
  async function spawning(allowSpawn: string[]) {
    const started = await startInspector({ target: commandLine, allowSpawn });
    const credentials = await exchange(started.url);
    const ask = (name: string, body: unknown = {}) => op(name, body, { ...credentials, port: started.port });
    return { started, ask };
  }

  const secretSeen = async (ask: (name: string, body?: unknown) => Promise<Answer>) => {
    const called = await ask("tools/call", { name: "env", arguments: { name: "CLI_SECRET" } });
    return JSON.parse(called.body).value.result.content[0].text as string;
  };

  it("starts no command the page names without --allow-spawn", async () => {
    const body = { command: "sh", args: ["-c", "echo started by the page"] };
    const refused = await op("connect", body);
    expect(refused.status).toBe(400);
    expect(message(refused)).toBe(
      "Starting another command from the page needs mcpkit inspect --allow-spawn PROGRAM,…",
    );
    expect(inspector.session.target.kind).toBe("http");
  });

  it("starts only the programs the list names, spelled as the list spells them", async () => {
    const { started, ask } = await spawning(["node"]);
    try {
      for (const command of ["sh", process.execPath, "./node", "NODE"]) {
        // (process.execPath with the command line's own arguments would be the command line's server.)
        const refused = await ask("connect", { command, args: [envServer, "from-the-page"] });
        expect(refused.status).toBe(400);
        expect(message(refused)).toBe(
          `The page may start node (mcpkit inspect --allow-spawn), not ${JSON.stringify(command)}`,
        );
      }
      expect(started.session.target).toEqual(commandLine);
      const allowed = await ask("connect", { command: "node", args: [envServer] });
      expect(JSON.parse(allowed.body).value).toMatchObject({ status: "connected", transport: "stdio" });
    } finally {
      await started.close();
    }
  });

  it("never takes an environment from the page", async () => {
    const { started, ask } = await spawning(["node"]);
    try {
      for (const body of [
        { command: "node", args: [envServer], env: { NODE_OPTIONS: "--require /tmp/x.js" } },
        { ...commandLine, env: {} },
      ]) {
        const refused = await ask("connect", body);
        expect(refused.status).toBe(400);
        expect(message(refused)).toBe(
          "The page does not set a command's environment: give variables to mcpkit inspect with -e",
        );
      }
      expect(started.session.target).toEqual(commandLine);
    } finally {
      await started.close();
    }
  });

  it("gives the command line's variables to the command line's server alone, not to a command of the page's", async () => {
    const { started, ask } = await spawning(["node"]);
    try {
      await started.session.connect();
      expect(await secretSeen(ask)).toBe("s3cret");
      await ask("connect", { command: "node", args: [envServer] });
      expect(await secretSeen(ask)).toBe("(unset)");
      // The command line's own command, asked for by the page: its variables again.
      await ask("connect", { command: commandLine.command, args: commandLine.args });
      expect(await secretSeen(ask)).toBe("s3cret");
    } finally {
      await started.close();
    }
  });
});
