import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { closeServed, mcpkitOverHttp, sdkOverHttp, sdkOverStdio, serveHttp, textOf } from "../serve/helpers.js";

// The seeds' sampling and elicitation in `mcpkit serve workspace`, end to end: the
// official SDK's client answering them over stdio and HTTP, and mcpkit's client over
// HTTP in 2026-07-28, where both travel as a multi round-trip request.

// Each test starts the real binary (some several times): generous, since a loaded machine starts Node slowly.
vi.setConfig({ testTimeout: 60_000 });

let dir: string;
beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "mcpkit-seed-interop-")));
  const git = (args: string[]) =>
    execFileSync("git", args, { cwd: dir, env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null" }, stdio: "pipe" });
  git(["init", "-q", "-b", "main"]);
  for (const name of ["alpha", "beta", "gamma"]) writeFileSync(join(dir, `${name}.md`), `# ${name}\n`);
  git(["add", "."]);
  git(["-c", "user.name=Ada", "-c", "user.email=ada@example.com", "commit", "-q", "-m", "docs: start"]);
  writeFileSync(join(dir, "beta.md"), "# beta, revised\n");
  git(["add", "beta.md"]);
});
afterEach(closeServed);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const capabilities = { sampling: {}, elicitation: { form: {} } };

/** The SDK's client, its "user" choosing Angular and its "model" picking gamma.md. */
function answerAsUser(client: SdkClient, asked: string[]) {
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(`elicit: ${request.params.message}`);
    return { action: "accept", content: { convention: "angular" } };
  });
  client.setRequestHandler(CreateMessageRequestSchema, () => {
    asked.push("sample");
    return { role: "assistant", model: "test", content: { type: "text", text: "gamma.md" } };
  });
}

async function exercise(client: SdkClient, asked: string[]) {
  const ranked = await client.callTool({
    name: "search_files",
    arguments: { pattern: "*.md", rankFor: "the third letter" },
  });
  expect(textOf(ranked).split("\n").slice(1, 3)).toEqual([
    '[ranked by the client\'s model (sampling) for "the third letter": its 1 pick first, then the rest by keyword overlap]',
    "gamma.md",
  ]);
  const commit = await client.getPrompt({ name: "git-commit", arguments: {} });
  expect(commit.description).toMatch(/convention: Angular \(chosen by the user\)$/);
  expect((commit.messages[0]?.content as { text: string } | undefined)?.text).toContain("+# beta, revised");
  const again = await client.getPrompt({ name: "git-commit", arguments: { changes: "x" } });
  expect(again.description).toMatch(/Angular \(remembered for this session\)$/);
  expect(asked).toEqual(["sample", expect.stringMatching(/^elicit: Which convention/)]);
}

describe("the official SDK's client answers the workspace's sampling and elicitation", () => {
  it("over stdio", async () => {
    const asked: string[] = [];
    const client = await sdkOverStdio("workspace", ["--root", dir], {
      capabilities,
      setup: (c) => answerAsUser(c, asked),
    });
    await exercise(client, asked);
  });

  it("over Streamable HTTP", async () => {
    const served = await serveHttp("workspace", ["--root", dir]);
    const asked: string[] = [];
    await exercise(await sdkOverHttp(served.url, capabilities, (c) => answerAsUser(c, asked)), asked);
  });

  it("and a client without either gets keyword ranking and no question, both said", async () => {
    const client = await sdkOverStdio("workspace", ["--root", dir]);
    const ranked = await client.callTool({ name: "search_files", arguments: { pattern: "*.md", rankFor: "gamma" } });
    expect(textOf(ranked).split("\n").slice(1, 3)).toEqual([
      '[ranked by keyword overlap with "gamma": the client offers no sampling, so no model ranked them]',
      "gamma.md",
    ]);
    const commit = await client.getPrompt({ name: "git-commit", arguments: {} });
    expect(commit.description).toMatch(/none: the client cannot ask the user/);
  });
});

describe("mcpkit's client over HTTP in 2026-07-28", () => {
  it("answers both as input requests of multi round-trip requests", async () => {
    const served = await serveHttp("workspace", ["--root", dir]);
    const asked: string[] = [];
    const client = await mcpkitOverHttp(served.url, {
      protocolVersion: "2026-07-28",
      sampling: async () => {
        asked.push("sample");
        return { role: "assistant", model: "test", content: { type: "text", text: "alpha.md" } };
      },
      elicitation: async () => {
        asked.push("elicit");
        return { action: "accept", content: { convention: "custom", rules: "Prefix with the area." } };
      },
    });
    const ranked = await client.callTool("search_files", { pattern: "*.md", rankFor: "the first letter" });
    expect(textOf(ranked).split("\n")[2]).toBe("alpha.md");
    const commit = await client.getPrompt("git-commit", {});
    expect((commit.messages[0]?.content as { text: string } | undefined)?.text).toContain(
      "Follow this project's own convention: Prefix with the area.",
    );
    expect(asked).toEqual(["sample", "elicit"]);
  });
});
