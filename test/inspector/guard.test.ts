import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Inspector, startInspector } from "../../packages/cli/src/inspector/index.js";
import { CLI_BIN } from "../cli-call/helpers.js";

// Who may use the inspector: the browser that opened the printed URL (the one-time token,
// exchanged for a cookie), through this machine's own names, from the inspector's own page.
// Each refusal is paired with the same request made right, so the check is what refuses it.

let inspector: Inspector;
let cookie: string;

/** A raw HTTP request (fetch may not set Host): status, headers and body. */
function send(
  path: string,
  {
    method = "GET",
    headers = {},
    body,
    port = inspector.port,
  }: { method?: string; headers?: Record<string, string>; body?: string; port?: number } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method,
        headers: { host: `127.0.0.1:${port}`, ...headers },
      },
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

const ours = () => `http://127.0.0.1:${inspector.port}`;

beforeAll(async () => {
  // Nothing listens on port 9 of this machine: the connection fails, which these checks never reach.
  inspector = await startInspector({ target: { kind: "http", url: "http://127.0.0.1:9/mcp", headers: {} } });
  const token = new URL(inspector.url).searchParams.get("token") as string;
  const exchanged = await send(`/?token=${token}`);
  expect(exchanged.status).toBe(303);
  expect(exchanged.headers.location).toBe("/");
  const setCookie = String(exchanged.headers["set-cookie"]);
  expect(setCookie).toMatch(/; HttpOnly; SameSite=Strict; Path=\//);
  cookie = setCookie.split(";")[0] as string;
});

afterAll(() => inspector?.close());

describe("the inspector's guard", () => {
  it("listens on 127.0.0.1 only", () => {
    expect(new URL(inspector.url).hostname).toBe("127.0.0.1");
  });

  it("refuses a request without the token's cookie with 401", async () => {
    const refused = await send("/app.js");
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body).error.message).toContain("URL mcpkit inspect printed");
    expect((await send("/api/events", { headers: { cookie: "mcpkit_inspector=guessed" } })).status).toBe(401);
    expect((await send("/app.js", { headers: { cookie } })).status).toBe(200);
  });

  it("takes the token once: a second use, or a wrong one, is refused with 401", async () => {
    const token = new URL(inspector.url).searchParams.get("token") as string;
    expect((await send(`/?token=${token}`)).status).toBe(401);
    expect((await send("/?token=wrong")).status).toBe(401);
  });

  it("refuses a foreign Origin with 403, even with the cookie", async () => {
    const post = (origin: string) =>
      send("/api/disconnect", {
        method: "POST",
        headers: { cookie, origin, "content-type": "application/json" },
        body: "{}",
      });
    const refused = await post("http://evil.example");
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).error.message).toBe('Origin "http://evil.example" may not use this inspector');
    // Another port of this machine is another origin, though the same site for the cookie.
    expect((await post(`http://127.0.0.1:${inspector.port + 1}`)).status).toBe(403);
    expect((await post("null")).status).toBe(403);
    expect((await post(ours())).status).toBe(200);
  });

  it("refuses a request that changes something without an Origin with 403", async () => {
    const refused = await send("/api/disconnect", { method: "POST", headers: { cookie }, body: "{}" });
    expect(refused.status).toBe(403);
    expect(
      (await send("/api/disconnect", { method: "POST", headers: { cookie, origin: ours() }, body: "{}" })).status,
    ).toBe(200);
  });

  it("refuses a foreign Host with 403, even with the cookie (DNS rebinding)", async () => {
    const refused = await send("/app.js", { headers: { cookie, host: `rebound.example:${inspector.port}` } });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).error.message).toContain("is not this inspector's address");
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
    const headers = { cookie, origin: ours() };
    expect((await send("/api/nothing", { method: "POST", headers, body: "{}" })).status).toBe(404);
    const bad = await send("/api/list", { method: "POST", headers, body: "{" });
    expect(bad.status).toBe(400);
  });

  it("starts no command the page names: only the command line's, unless --allow-spawn", async () => {
    const headers = { cookie, origin: ours(), "content-type": "application/json" };
    const body = JSON.stringify({ command: "sh", args: ["-c", "echo started by the page"] });
    const refused = await send("/api/connect", { method: "POST", headers, body });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body).error.message).toBe(
      "Starting another command from the page needs mcpkit inspect --allow-spawn",
    );
    expect(inspector.session.target.kind).toBe("http");
  });

  it("with --allow-spawn, starts the command the page names", async () => {
    const spawning = await startInspector({
      target: { kind: "http", url: "http://127.0.0.1:9/mcp", headers: {} },
      allowSpawn: true,
    });
    try {
      const token = new URL(spawning.url).searchParams.get("token") as string;
      const exchanged = await send(`/?token=${token}`, { port: spawning.port });
      const theirs = String(exchanged.headers["set-cookie"]).split(";")[0] as string;
      const body = JSON.stringify({ command: process.execPath, args: [CLI_BIN, "serve", "everything", "--stdio"] });
      const started = await send("/api/connect", {
        port: spawning.port,
        method: "POST",
        headers: { cookie: theirs, origin: `http://127.0.0.1:${spawning.port}`, "content-type": "application/json" },
        body,
      });
      expect(started.status).toBe(200);
      expect(JSON.parse(started.body).value).toMatchObject({ status: "connected", transport: "stdio" });
    } finally {
      await spawning.close();
    }
  });
});
