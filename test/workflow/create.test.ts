import { execFile, spawn } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INSTALL_CLIENTS } from "../../packages/cli/src/config/install-target.js";
import { TEMPLATE_NAMES } from "../../packages/create-mcpkit/src/templates.js";
import { VERSIONS } from "../../packages/create-mcpkit/src/versions.js";
import { REPO_ROOT, type Run, scratch } from "./helpers.js";

// create-mcpkit as a person runs it: every question answered by a flag (or at the terminal),
// and every template makes a project that type-checks and passes its own tests. Here a
// project's packages are this repository's (mcpkit's build, and the very versions the
// templates ask for); the walk through test/workflow/developer-day.test.ts installs them
// from the packed tarballs instead.

const CREATE = join(REPO_ROOT, "packages/create-mcpkit/bin/create-mcpkit.js");
let space: ReturnType<typeof scratch>;
beforeAll(() => {
  if (!existsSync(join(REPO_ROOT, "packages/create-mcpkit/dist/main.js")))
    throw new Error("packages/create-mcpkit/dist is missing: run `npm run build` first");
  space = scratch("create");
  // Projects made here find this repository's packages, as if installed.
  symlinkSync(join(REPO_ROOT, "node_modules"), join(space.dir, "node_modules"));
});
afterAll(() => space.remove());

const create = (args: string[], cwd = space.dir): Promise<Run> =>
  new Promise((resolve) => {
    execFile(process.execPath, [CREATE, ...args], { cwd, timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
const read = (dir: string, file: string) => readFileSync(join(space.dir, dir, file), "utf8");
const createWith = (args: string[], env: NodeJS.ProcessEnv): Promise<Run> =>
  new Promise((resolve) => {
    execFile(process.execPath, [CREATE, ...args], { cwd: space.dir, env, timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });

describe("create-mcpkit's command line", () => {
  it.each([
    [["--template", "nope"], 'Unknown template "nope": choose one of stdio, http, hono, express, fastify, workers'],
    [["x", "--name", "Has Spaces"], '"Has Spaces" is not a valid package name: it must be lowercase'],
    [["x", "--mcp-name", "no-slash"], '--mcp-name "no-slash" must look like io.github.you/my-server'],
    [["x", "--install", "--no-install"], "--install and --no-install contradict each other"],
    [["a", "b"], "One directory, please: got a, b"],
    [["--bogus"], "Unknown option '--bogus'"],
    [["x", "--from", "/nowhere"], "--from /nowhere: no mcpkit-0.1.0.tgz there (npm run release"],
    [
      ["x", "--name", "tilde~name"],
      '"tilde~name" is not a valid package name: it may hold only letters, digits, - . and _',
    ],
    [["x", "--name", "http"], '"http" is not a valid package name: it is the name of Node\'s own module http'],
    [["node_modules"], '"node_modules" is not a valid package name: it is one npm keeps for itself'],
    [["..."], '"..." leaves nothing of a package name: give one with --name'],
  ])("create-mcpkit %j exits 2 and says what is wrong", async (args, message) => {
    const run = await create(args);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain("Usage: npm create mcpkit@latest");
    expect(run.code).toBe(2);
  });

  it("writes into a folder with files in it only with --force", async () => {
    mkdirSync(join(space.dir, "taken"));
    writeFileSync(join(space.dir, "taken/notes.txt"), "mine\n");
    const refused = await create(["taken", "--no-install"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("is not empty: choose another directory, or pass --force");
    expect(await create(["taken", "--no-install", "--force"])).toMatchObject({ code: 0 });
    expect(read("taken", "notes.txt")).toBe("mine\n");
  });

  it("--force writes through no link planted in the folder: a file link is replaced, a folder link refused", async () => {
    const victims = join(space.dir, "victims");
    mkdirSync(join(victims, "outside"), { recursive: true });
    writeFileSync(join(victims, ".bashrc"), "mine\n");
    const planted = join(space.dir, "planted");
    mkdirSync(planted);
    symlinkSync(join(victims, ".bashrc"), join(planted, "package.json"));
    symlinkSync(join(victims, "outside"), join(planted, "src"));
    const refused = await create(["planted", "--no-install", "--force"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `create-mcpkit: ${join(planted, "src")} is a link to ${join(victims, "outside")}: create-mcpkit writes only inside ${planted}`,
    );
    expect(readdirSync(join(victims, "outside"))).toEqual([]);
    // The file link: replaced by the project's own file, the file it pointed to untouched.
    rmSync(join(planted, "src"));
    expect((await create(["planted", "--no-install", "--force"])).code).toBe(0);
    expect(readFileSync(join(victims, ".bashrc"), "utf8")).toBe("mine\n");
    expect(lstatSync(join(planted, "package.json")).isSymbolicLink()).toBe(false);
    expect(JSON.parse(read("planted", "package.json")).name).toBe("planted");
    // No temporary file left behind.
    expect(readdirSync(planted).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("names the package after the folder as npm allows a name, and says so when that changed it", async () => {
    const run = await create(["My Server!", "--no-install"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('The package is named my-server, from "My Server!" as npm allows a name');
    expect(JSON.parse(read("My Server!", "package.json")).name).toBe("my-server");
    expect((await create(["plain", "--no-install"])).stderr).not.toContain("The package is named");
  });

  it("says so when the directory is a file, or a link to nothing", async () => {
    writeFileSync(join(space.dir, "a-file"), "mine\n");
    const file = await create(["a-file", "--no-install"]);
    expect(file).toMatchObject({
      code: 1,
      stderr: `create-mcpkit: ${join(space.dir, "a-file")} is a file, not a folder: choose another directory\n`,
    });
    symlinkSync(join(space.dir, "nowhere"), join(space.dir, "dangling"));
    const link = await create(["dangling", "--no-install"]);
    expect(link.code).toBe(1);
    expect(link.stderr).toContain(`is a link to ${join(space.dir, "nowhere")}, which does not exist`);
  });

  it("prints its help and version", async () => {
    expect((await create(["--help"])).stdout).toContain("--template NAME");
    const own = JSON.parse(readFileSync(join(REPO_ROOT, "packages/create-mcpkit/package.json"), "utf8"));
    expect(await create(["-v"])).toMatchObject({ code: 0, stdout: `${own.version}\n` });
  });

  it("asks at a terminal what the flags leave open", async () => {
    // util-linux `script` gives the command a pseudo-terminal, as a person's shell would.
    const child = spawn("script", ["-q", "-e", "-c", `"${process.execPath}" "${CREATE}"`, "/dev/null"], {
      cwd: space.dir,
      stdio: ["pipe", "pipe", "ignore"],
      env: { ...process.env, TERM: "dumb" },
    });
    let screen = "";
    const shown = (text: string) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (screen.includes(text)) {
            child.stdout.off("data", check);
            resolve();
          }
        };
        child.stdout.on("data", check);
        check();
      });
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      screen += chunk;
    });
    const exited = new Promise((resolve) => child.once("close", resolve));
    await shown("Directory (my-mcp-server): ");
    child.stdin.write("asked\r");
    await shown("Template (stdio): ");
    child.stdin.write("9\r"); // not a choice: asked again
    await shown("Answer with a number from 1 to 6");
    child.stdin.write("3\r");
    await shown("Install the dependencies now? (Y/n) ");
    child.stdin.write("n\r");
    await exited;
    expect(screen).toContain("Created asked in asked from the hono template");
    expect(JSON.parse(read("asked", "package.json")).dependencies).toHaveProperty("hono");
  }, 30_000);

  it("works in a script as documented: npm's --yes before the package, the scaffold's after it", async () => {
    // Every documented command that runs the scaffold through npx or npm create, for a script.
    const documented = [
      ...readFileSync(join(REPO_ROOT, "docs/workflow.md"), "utf8").matchAll(
        /`(np[mx] [^`]*create[- ]mcpkit[^`]* my-server[^`]*)`/g,
      ),
      ...readFileSync(join(REPO_ROOT, "packages/create-mcpkit/README.md"), "utf8").matchAll(
        /^(np[mx] [^#\n]*--yes[^#\n]*)/gm,
      ),
      ...readFileSync(join(REPO_ROOT, "README.md"), "utf8").matchAll(/^(npx [^#\n]*create-mcpkit[^#\n]*)/gm),
    ].map((m) => (m[1] as string).trim());
    expect(documented.length).toBeGreaterThanOrEqual(5);
    for (const command of documented) expect(command, command).toMatch(/^(npx|npm create) --yes .* --yes$/);
    // The documented form, run with no terminal: it asks nothing, npm included, and makes the project.
    const scripted = await new Promise<Run>((resolve) => {
      execFile(
        "npx",
        [
          "--yes",
          `--package=${join(REPO_ROOT, "packages/create-mcpkit")}`,
          "create-mcpkit",
          "scripted",
          "--yes",
          "--no-install",
        ],
        { cwd: space.dir, timeout: 120_000, env: { ...process.env, CI: "" } },
        (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
      ).stdin?.end();
    });
    expect(scripted.code, scripted.stderr).toBe(0);
    expect(scripted.stderr).toContain("Created scripted in scripted from the stdio template");
    expect(scripted.stderr).not.toContain("Ok to proceed");
  }, 120_000);

  it("names the package's author as git names a commit's, and none when git has no name", async () => {
    const bare = { ...process.env, HOME: join(space.dir, "nohome"), GIT_CONFIG_NOSYSTEM: "1" };
    const named = await createWith(["authored", "--no-install"], {
      ...bare,
      GIT_AUTHOR_NAME: "Ada Lovelace",
      GIT_AUTHOR_EMAIL: "ada@example.com",
    });
    expect(named.code, named.stderr).toBe(0);
    expect(JSON.parse(read("authored", "package.json")).author).toBe("Ada Lovelace <ada@example.com>");
    const anonymous = await createWith(["anonymous", "--no-install"], bare);
    expect(anonymous.code, anonymous.stderr).toBe(0);
    expect(JSON.parse(read("anonymous", "package.json"))).not.toHaveProperty("author");
  });

  it("serves npm run dev on 3100, not npm start's 3000, as the README says", async () => {
    const help = await new Promise<string>((resolve) =>
      execFile(process.execPath, [join(REPO_ROOT, "packages/cli/bin/mcpkit.js"), "dev", "--help"], (_e, stdout) =>
        resolve(stdout),
      ),
    );
    expect(help.replace(/\s+/g, " ")).toContain(
      "--port <port> serve Streamable HTTP on http://HOST:PORT/mcp (default 3100, or a free port when it is taken)",
    );
    expect(read("scripted", "README.md")).toContain(
      "npm run dev     # serves src/server.ts on http://127.0.0.1:3100/mcp",
    );
  });

  it("asks for the versions mcpkit's own tests run with", () => {
    const root = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    const mcpkit = JSON.parse(readFileSync(join(REPO_ROOT, "packages/mcpkit/package.json"), "utf8")) as {
      version: string;
    };
    for (const [name, range] of Object.entries(VERSIONS)) {
      if (name === "mcpkit" || name === "@mcpkit/cli") expect(range).toBe(`^${mcpkit.version}`);
      else expect(range, name).toBe(root.devDependencies[name]);
    }
  });
});

describe("the stdio template's README", () => {
  it("names every client mcpkit install writes to, where it lists them", () => {
    const part = readFileSync(join(REPO_ROOT, "packages/create-mcpkit/templates/stdio/README.part.md"), "utf8");
    const listing = /`mcpkit install` adds it to[^.]*\./.exec(part)?.[0] ?? "";
    for (const client of INSTALL_CLIENTS) expect(listing).toContain(`\`${client}\``);
  });
});

describe.each(TEMPLATE_NAMES)("the %s template", (template) => {
  const dir = `made-${template}`;
  let made: Run;
  beforeAll(async () => {
    made = await create([dir, "--template", template, "--no-install", "--description", 'Says "hello"']);
  }, 30_000);

  it("makes a project with a README, package.json, tests, and no placeholder left", () => {
    expect(made.code).toBe(0);
    expect(made.stderr).toContain(`Created ${dir} in ${dir} from the ${template} template`);
    const files = readdirSync(join(space.dir, dir), { recursive: true }).map(String);
    expect(files).toEqual(
      expect.arrayContaining(["README.md", "package.json", "tsconfig.json", ".gitignore", "icon.png"]),
    );
    expect(files.some((f) => /\.test\.ts$/.test(f))).toBe(true);
    for (const file of files.filter((f) => /\.(ts|md|json|jsonc)$/.test(f)))
      expect(read(dir, file)).not.toMatch(/\{\{|<!-- (template|distribute) -->/);
    const pkg = JSON.parse(read(dir, "package.json"));
    expect(pkg).toMatchObject({ name: dir, description: 'Says "hello"', type: "module", engines: { node: ">=20" } });
    expect(pkg.dependencies.mcpkit).toBe(VERSIONS.mcpkit);
    expect(pkg.devDependencies["@mcpkit/cli"]).toBe(VERSIONS["@mcpkit/cli"]);
    expect(pkg.scripts).toMatchObject({ dev: "mcpkit dev src/server.ts", test: "tsc && node --test" });
    // The registry is told how the package's own command serves: stdio, or HTTP on $PORT.
    const serverJson =
      template === "workers"
        ? undefined
        : `mcpkit bundle src/server.ts --server-json${template === "stdio" ? "" : " --transport http"}`;
    expect(pkg.scripts["server-json"]).toBe(serverJson);
    // A description with quotes lands in code as a string, escaped.
    expect(read(dir, "src/server.ts")).toContain('() => "Says \\"hello\\""');
  });

  it("has a README that runs only the scripts package.json has, and names the bundle as mcpkit bundle does", () => {
    const pkg = JSON.parse(read(dir, "package.json"));
    const readme = read(dir, "README.md");
    const named = [...readme.matchAll(/\bnpm run ([\w-]+)/g)].map((m) => m[1] as string);
    expect(named).toContain("bundle");
    for (const script of named) expect(pkg.scripts, `npm run ${script}`).toHaveProperty(script);
    expect(readme).toContain(`${dir}-${pkg.version}.mcpb`);
  });

  it("lets the install scripts of @mcpkit/cli's esbuild and SQLite run (npm's allowScripts)", () => {
    const pkg = JSON.parse(read(dir, "package.json"));
    expect(pkg.allowScripts).toEqual({ "better-sqlite3": true, esbuild: true });
  });

  it("type-checks and passes its own tests", async () => {
    const cwd = join(space.dir, dir);
    await promisify(execFile)(process.execPath, [join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-p", "."], {
      cwd,
      timeout: 120_000,
    });
    const tested = await promisify(execFile)(process.execPath, ["--test"], { cwd, timeout: 120_000 });
    expect(tested.stdout).toMatch(/# fail 0/);
    expect(Number(/# pass (\d+)/.exec(tested.stdout)?.[1])).toBeGreaterThanOrEqual(3);
  }, 180_000);
});
