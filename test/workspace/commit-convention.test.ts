import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type WorkspaceServer, workspaceServer } from "@mcpkit/servers/workspace";
import type { ElicitFormParams, GetPromptResult } from "mcpkit";
import type { Context } from "mcpkit/server";
import { connectInMemory } from "mcpkit/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { conventionMemory } from "../../packages/servers/src/workspace/git/convention.js";

// git-commit (seed 004) with the commit convention asked of the user through elicitation
// (seed 003 §6.3) and remembered for the session: with a client that can be asked and one
// that cannot, in both protocol eras.

let dir: string;
let workspace: WorkspaceServer;
const closers: (() => Promise<void>)[] = [];

function git(args: string[]) {
  execFileSync("git", args, {
    cwd: dir,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "mcpkit-commit-")));
  git(["init", "-q", "-b", "main"]);
  git(["config", "user.email", "ada@example.com"]);
  git(["config", "user.name", "Ada"]);
  mkdirSync(join(dir, "src"));
  for (const [i, subject] of ["feat: start", "fix(core): off by one", "docs: readme", "chore: tidy"].entries()) {
    writeFileSync(join(dir, "src", `f${i}.js`), `export const v = ${i};\n`);
    git(["add", "."]);
    git(["commit", "-q", "-m", subject]);
    if (i === 0) git(["branch", "start"]);
  }
  writeFileSync(join(dir, "src", "f0.js"), "export const v = 42;\n");
  git(["add", "src/f0.js"]);
  workspace = await workspaceServer({ root: [dir] });
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
afterAll(async () => {
  await workspace.close();
  rmSync(dir, { recursive: true, force: true });
});

type Era = "2025-11-25" | "2026-07-28";
type Answer = { action: "accept" | "decline" | "cancel"; content?: Record<string, string> };

/** A client whose user answers the elicitation with `answers`, in turn; every question is kept. */
async function userClient(era: Era, answers: Answer[]) {
  const asked: ElicitFormParams[] = [];
  const connected = await connectInMemory(workspace.server, {
    protocolVersion: era,
    elicitation: async (params) => {
      asked.push(params as ElicitFormParams);
      return answers.shift() ?? { action: "cancel" };
    },
  });
  closers.push(connected.close);
  return { client: connected.client, asked };
}

const text = (result: GetPromptResult) => (result.messages[0]?.content as { text?: string } | undefined)?.text ?? "";

describe.each(["2025-11-25", "2026-07-28"] as const)("git-commit, protocol %s", (era) => {
  it("writes the request for the staged diff when no changes are given", async () => {
    const { client } = await userClient(era, [{ action: "accept", content: { convention: "angular" } }]);
    const result = await client.getPrompt("git-commit", {});
    expect(text(result)).toMatch(/^Generate a concise but descriptive commit message for these changes\./);
    expect(text(result)).toContain("-export const v = 0;\n+export const v = 42;");
    const given = await client.getPrompt("git-commit", { changes: "Renamed the config file", convention: "angular" });
    expect(text(given)).toContain("Renamed the config file");
    expect(text(given)).not.toContain("export const v");
  });

  it("asks for the convention, offering the one the history suggests, and follows the answer", async () => {
    const { client, asked } = await userClient(era, [{ action: "accept", content: { convention: "angular" } }]);
    const result = await client.getPrompt("git-commit", {});
    expect(asked).toHaveLength(1);
    expect(asked[0]?.message).toMatch(
      /Which convention should commit messages in mcpkit-commit-\w+ follow\? \(The recent history looks like Conventional Commits\.\)/,
    );
    const field = (asked[0]?.requestedSchema.properties as Record<string, Record<string, unknown>> | undefined)
      ?.convention;
    expect(field).toMatchObject({ default: "conventional", oneOf: expect.any(Array) });
    expect(result.description).toMatch(/; convention: Angular \(chosen by the user\)$/);
    expect(text(result)).toContain("Follow the Angular commit message format");
  });

  it("takes a custom convention in the user's words", async () => {
    const { client } = await userClient(era, [
      { action: "accept", content: { convention: "custom", rules: "Start with the ticket key, like ABC-123." } },
    ]);
    const result = await client.getPrompt("git-commit", { changes: "x" });
    expect(text(result)).toContain("Follow this project's own convention: Start with the ticket key, like ABC-123.");
  });

  it("goes on without a convention when the user declines, and asks again next time", async () => {
    const { client, asked } = await userClient(era, [
      { action: "decline" },
      { action: "accept", content: { convention: "conventional" } },
    ]);
    const declined = await client.getPrompt("git-commit", { changes: "x" });
    expect(declined.description).toMatch(/convention: none \(none: the user declined the question\)$/);
    expect(text(declined)).toContain("No convention was chosen");
    const second = await client.getPrompt("git-commit", { changes: "x" });
    expect(second.description).toMatch(/convention: Conventional Commits \(chosen by the user\)$/);
    expect(asked).toHaveLength(2);
  });

  it("does not ask a client that cannot be asked, and says so", async () => {
    const connected = await connectInMemory(workspace.server, { protocolVersion: era });
    closers.push(connected.close);
    const result = await connected.client.getPrompt("git-commit", { changes: "x" });
    expect(result.description).toMatch(
      /convention: none \(none: the client cannot ask the user \(no form elicitation\)\)$/,
    );
  });

  it("does not ask when the caller names the convention", async () => {
    const { client, asked } = await userClient(era, []);
    const result = await client.getPrompt("git-commit", { changes: "x", convention: "conventional" });
    expect(asked).toHaveLength(0);
    expect(result.description).toMatch(/Conventional Commits \(given\)$/);
  });

  it("describes all that differs from a base branch, completed from the branches", async () => {
    const { client } = await userClient(era, []);
    const result = await client.getPrompt("git-commit", { base: "start", convention: "conventional" });
    expect(text(result)).toContain("+export const v = 3;");
    // The working tree against the branch: later commits and what is staged alike.
    expect(text(result)).toContain("+export const v = 42;");
    const values = await client.complete({
      ref: { type: "ref/prompt", name: "git-commit" },
      argument: { name: "base", value: "st" },
    });
    expect(values.completion.values).toEqual(["start"]);
  });

  it("completes the convention and the repository", async () => {
    const { client } = await userClient(era, []);
    const values = async (name: string, value: string) =>
      (await client.complete({ ref: { type: "ref/prompt", name: "git-commit" }, argument: { name, value } })).completion
        .values;
    expect(await values("convention", "c")).toEqual(["conventional", "custom"]);
    expect(await values("repo", "mcpkit-commit")).toHaveLength(1);
  });
});

describe("remembering the convention", () => {
  it("keeps the answer for the session: a handshake-era client is asked once", async () => {
    const { client, asked } = await userClient("2025-11-25", [
      { action: "accept", content: { convention: "angular" } },
    ]);
    await client.getPrompt("git-commit", { changes: "x" });
    const again = await client.getPrompt("git-commit", { changes: "y" });
    expect(asked).toHaveLength(1);
    expect(again.description).toMatch(/Angular \(remembered for this session\)$/);
    // Another connection is another session: asked afresh.
    const other = await userClient("2025-11-25", [{ action: "accept", content: { convention: "conventional" } }]);
    await other.client.getPrompt("git-commit", { changes: "x" });
    expect(other.asked).toHaveLength(1);
  });

  it("asks a 2026-07-28 request without a verified token every time: nothing outlasts the request", async () => {
    const { client, asked } = await userClient("2026-07-28", [
      { action: "accept", content: { convention: "angular" } },
      { action: "accept", content: { convention: "angular" } },
    ]);
    await client.getPrompt("git-commit", { changes: "x" });
    await client.getPrompt("git-commit", { changes: "y" });
    expect(asked).toHaveLength(2);
  });

  it("keeps a 2026-07-28 answer per authenticated principal (issuer and subject)", () => {
    const memory = conventionMemory();
    const as = (subject: string, iss = "https://as.example") =>
      ({ session: undefined, auth: { subject, claims: { iss } } }) as unknown as Context;
    memory.remember(as("ada"), { kind: "angular" });
    expect(memory.recall(as("ada"))).toEqual({ kind: "angular" });
    expect(memory.recall(as("grace"))).toBeUndefined();
    expect(memory.recall(as("ada", "https://other.example"))).toBeUndefined();
    expect(memory.recall({ session: undefined, auth: undefined } as unknown as Context)).toBeUndefined();
  });

  it("refuses when nothing is staged and no changes are given", async () => {
    git(["reset", "-q"]);
    try {
      const { client } = await userClient("2025-11-25", []);
      await expect(client.getPrompt("git-commit", { convention: "angular" })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/^Nothing is staged in mcpkit-commit-\w+: stage changes with git add/),
      });
    } finally {
      git(["add", "src/f0.js"]);
    }
  });
});
