import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "mcpkit/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startAuthorizationServer, type TestAuthorizationServer } from "../auth/authorization-server.js";
import { protectedMcp } from "../auth/helpers.js";
import { mcpkit, requireBuild, stopAll, Terminal } from "./helpers.js";

// `mcpkit call` against an MCP server protected by an OAuth authorization server (both in
// this process, on 127.0.0.1). The test plays the user's browser: it opens the URL the
// command prints, the authorization server approves and redirects to the command's
// loopback listener.

let as: TestAuthorizationServer;
let mcp: Awaited<ReturnType<typeof protectedMcp>>;
let configDir = "";
const previousConfig = process.env.MCPKIT_CONFIG_DIR;

beforeAll(async () => {
  requireBuild();
  as = await startAuthorizationServer();
  const server = createServer({ name: "vault", version: "1" });
  server.tool(
    "whoami",
    { scopes: ["tools:read"] },
    (_a, ctx) => `you are ${(ctx.auth as { subject?: string }).subject}`,
  );
  mcp = await protectedMcp(server, as);
});
afterAll(async () => {
  await mcp.close();
  await as.close();
});
beforeEach(() => {
  // Children inherit it: every run of the command keeps its logins here.
  configDir = mkdtempSync(join(tmpdir(), "mcpkit-login-"));
  process.env.MCPKIT_CONFIG_DIR = configDir;
});
afterEach(async () => {
  await stopAll();
  if (previousConfig === undefined) delete process.env.MCPKIT_CONFIG_DIR;
  else process.env.MCPKIT_CONFIG_DIR = previousConfig;
  rmSync(configDir, { recursive: true, force: true });
});

/** The user's browser: the authorization server approves and redirects to the loopback listener. */
async function approveInBrowser(authorizationUrl: string): Promise<void> {
  const approval = await fetch(authorizationUrl, { redirect: "manual" });
  const callback = approval.headers.get("location");
  expect(callback, "the authorization server's redirect").toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
  expect((await fetch(callback as string)).status).toBe(200);
}

describe("mcpkit call logs in to a server that needs authorization", () => {
  it("at a terminal: prints the authorization URL, waits for the browser, then calls the tool", async () => {
    const terminal = new Terminal(["call", "--no-browser", mcp.url, "call", "whoami"]);
    await terminal.expect("Open this URL to authorize:");
    await terminal.expect("/authorize?");
    const printed = /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(terminal.text)?.[1] as string;
    const authorization = new URL(printed);
    expect(authorization.searchParams.get("resource")).toBe(mcp.url);
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
    await approveInBrowser(printed);
    expect(await terminal.result()).toEqual({ code: 0, stdout: "you are user-ada\n" });
    // Kept for the next run, readable by the user only.
    expect(statSync(join(configDir, "oauth.json")).mode & 0o777).toBe(0o600);

    // The next run, with no terminal at all, uses the stored login.
    const again = await mcpkit(["call", mcp.url, "call", "whoami"]);
    expect(again).toMatchObject({ code: 0, stdout: "you are user-ada\n" });
    expect(as.authorizations).toHaveLength(1);
  });

  it("without a terminal and without a stored login: exits 4 and says how to log in", async () => {
    const run = await mcpkit(["call", mcp.url, "call", "whoami"]);
    expect(run.code).toBe(4);
    // In the CLI's words, not the library's (which name its redirectUri option).
    expect(run.stderr).toMatch(
      /^mcpkit call: The server requires authorization, and there is no stored login for it\n/,
    );
    expect(run.stderr).not.toContain("redirectUri");
    expect(run.stderr).toContain("Run mcpkit call at a terminal (without --no-interactive) to log in");
  });

  it("leaves authorization to the user's own --header, and says when the server refuses it", async () => {
    const token = await as.sign({ sub: "robot", scope: "tools:read" }, { audience: mcp.url });
    const ok = await mcpkit(["call", "-H", `Authorization: Bearer ${token}`, mcp.url, "call", "whoami"]);
    expect(ok).toMatchObject({ code: 0, stdout: "you are robot\n" });
    const refused = await mcpkit(["call", "-H", "Authorization: Bearer forged", mcp.url, "call", "whoami"]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain("HTTP 401");
    expect(refused.stderr).toContain("If you passed a token, check it");
  });
});
