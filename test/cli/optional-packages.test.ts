import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI_BIN, REPO_ROOT } from "../../packages/mcpkit/test/stdio/helpers.js";
import { requireBuild } from "../cli-call/helpers.js";

// The CLI's heavier integrations are optional packages, loaded by the server or flag that
// needs them. Without one, that server says which package to install; the others serve on.

const hide = join(REPO_ROOT, "test/cli/fixtures/without-package.mjs");

async function mcpkitWithout(pkg: string, args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--import", hide, CLI_BIN, ...args], {
      env: { ...process.env, NO_COLOR: "1", WITHOUT_PACKAGE: pkg },
      timeout: 15_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

beforeAll(() => requireBuild());

describe("optional packages of @mcpkit/cli", () => {
  it("serve github without @octokit/rest says how to install it", async () => {
    const result = await mcpkitWithout("@octokit/rest", ["serve", "github", "--stdio"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "serve github needs the @octokit/rest package, which is not installed: npm install --global @octokit/rest beside a global mcpkit, npm install @octokit/rest in a project",
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("serve --redis without @mcpkit/redis says how to install it", async () => {
    const key = "a state key of at least thirty-two bytes";
    const args = ["serve", "everything", "--port", "0", "--redis", "redis://127.0.0.1:1", "--state-key", key];
    const result = await mcpkitWithout("@mcpkit/redis", args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "--redis needs the @mcpkit/redis package, which is not installed: npm install --global @mcpkit/redis beside a global mcpkit",
    );
  });

  it("the other servers do not need them: weather serves and answers without @octokit/rest", async () => {
    const call = [
      "call",
      "--json",
      "get_current_weather",
      "city=Paris",
      "--",
      process.execPath,
      CLI_BIN,
      "serve",
      "weather",
    ];
    const { stdout } = await promisify(execFile)(process.execPath, [CLI_BIN, ...call], {
      // NODE_OPTIONS: the server the call starts cannot find the package either.
      env: { ...process.env, NO_COLOR: "1", WITHOUT_PACKAGE: "@octokit/rest", NODE_OPTIONS: `--import ${hide}` },
      timeout: 15_000,
    });
    expect(JSON.parse(stdout)).toMatchObject({ structuredContent: { city: "Paris" } });
  });
});
