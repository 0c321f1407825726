import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type WorkspaceServer, workspaceServer } from "@mcpkit/servers/workspace";
import type { CreateMessageParams } from "mcpkit";
import type { ClientOptions } from "mcpkit/client";
import { McpError } from "mcpkit/jsonrpc";
import { connectInMemory } from "mcpkit/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { textOf } from "../serve/results.js";

// search_files and search_content rank many hits by relevance (seed 003 §6.1): through
// the client's model (sampling/createMessage) when the client offers sampling, by keyword
// overlap otherwise, saying which. In both protocol eras.

let dir: string;
let workspace: WorkspaceServer;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "mcpkit-rank-")));
  for (const area of ["auth", "billing", "search", "ui"]) {
    mkdirSync(join(dir, area));
    for (const name of ["index", "helpers", "types"]) {
      writeFileSync(join(dir, area, `${name}.ts`), `// ${area} ${name}\nexport const TODO = "${area}";\n`);
    }
  }
  writeFileSync(join(dir, "auth", "login-session.ts"), "// login session tokens\nexport const TODO = 'auth';\n");
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

async function connect(era: Era, options: Partial<ClientOptions> = {}) {
  const connected = await connectInMemory(workspace.server, { protocolVersion: era, ...options });
  closers.push(connected.close);
  return connected.client;
}

/** A client whose "model" answers every sampling request with `reply`; the requests are kept. */
async function samplingClient(era: Era, reply: string | Error) {
  const requests: CreateMessageParams[] = [];
  const client = await connect(era, {
    sampling: async (params) => {
      requests.push(params);
      if (reply instanceof Error) throw reply;
      return { role: "assistant", model: "test-model", content: { type: "text", text: reply } };
    },
  });
  return { client, requests };
}

const lines = (result: unknown) => textOf(result).split("\n");

describe.each(["2025-11-25", "2026-07-28"] as const)("ranking search hits, protocol %s", (era) => {
  it("puts the model's picks first when the client offers sampling", async () => {
    const { client, requests } = await samplingClient(
      era,
      "1. auth/login-session.ts\n- `auth/index.ts`\nnot/a/hit.ts\n",
    );
    const result = await client.callTool("search_files", {
      pattern: "*.ts",
      rankFor: "where login sessions are handled",
    });
    const [header, note, first, second] = lines(result);
    expect(header).toMatch(/^13 matches for \*\.ts in /);
    expect(note).toBe(
      '[ranked by the client\'s model (sampling) for "where login sessions are handled": its 2 picks first, then the rest by keyword overlap]',
    );
    expect([first, second]).toEqual(["auth/login-session.ts", "auth/index.ts"]);
    // Every hit is still there, once: the model reorders, it cannot add or hide.
    expect(lines(result).slice(2).sort()).toHaveLength(13);
    expect(new Set(lines(result).slice(2)).size).toBe(13);
    expect(lines(result)).not.toContain("not/a/hit.ts");
    const asked = requests[0];
    expect(asked?.messages[0]?.content).toMatchObject({
      type: "text",
      text: expect.stringContaining("where login sessions are handled"),
    });
    expect((asked?.messages[0]?.content as { text: string } | undefined)?.text).toContain("billing/types.ts");
    expect(asked).toMatchObject({ includeContext: "none", maxTokens: 1000 });
  });

  it("ranks content hits by path and line", async () => {
    const { client } = await samplingClient(era, "ui/types.ts:2\nsearch/index.ts:2");
    const result = await client.callTool("search_content", { query: "TODO", rankFor: "typing of the user interface" });
    expect(lines(result).slice(2, 4)).toEqual([
      'ui/types.ts:2: export const TODO = "ui";',
      'search/index.ts:2: export const TODO = "search";',
    ]);
  });

  it("ranks by keyword overlap without sampling, saying so", async () => {
    const client = await connect(era);
    const result = await client.callTool("search_files", { pattern: "*.ts", rankFor: "login session" });
    expect(lines(result)[1]).toBe(
      '[ranked by keyword overlap with "login session": the client offers no sampling, so no model ranked them]',
    );
    expect(lines(result)[2]).toBe("auth/login-session.ts");
  });

  it("falls back to keyword overlap when the model names no hit", async () => {
    const vague = await samplingClient(era, "They all look relevant to me!");
    const result = await vague.client.callTool("search_files", { pattern: "*.ts", rankFor: "billing" });
    expect(lines(result)[1]).toBe("[ranked by keyword overlap: the client's model named none of the hits]");
    expect(lines(result)[2]).toMatch(/^billing\//);
  });

  it("when the user declines the sampling request: falls back (handshake era), or the client ends the call (2026-07-28)", async () => {
    // client/sampling §Error Handling: the user's refusal is error -1.
    const refusing = await samplingClient(era, new McpError(-1, "User rejected sampling request"));
    const call = refusing.client.callTool("search_files", { pattern: "*.ts", rankFor: "billing" });
    if (era === "2026-07-28") {
      // The answer to an input request is part of the call; a client that cannot give one ends it.
      await expect(call).rejects.toThrow(/User rejected sampling request/);
      return;
    }
    const refused = await call;
    expect(refused.isError).toBeFalsy();
    expect(lines(refused)[1]).toBe(
      "[ranked by keyword overlap: the client's model could not rank them (The client could not complete sampling/createMessage: User rejected sampling request)]",
    );
    expect(lines(refused)[2]).toMatch(/^billing\//);
  });

  it("leaves hits in walk order when no ranking is asked for, and asks no model", async () => {
    const { client, requests } = await samplingClient(era, "auth/index.ts");
    const result = await client.callTool("search_files", { pattern: "*.ts" });
    expect(lines(result)[1]).not.toMatch(/ranked/);
    expect(requests).toHaveLength(0);
  });
});
