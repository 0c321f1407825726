import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateKeyPair, SignJWT } from "jose";
import * as auth from "mcpkit/auth";
import { OAuthClient } from "mcpkit/auth";
import * as clientModule from "mcpkit/client";
import * as httpModule from "mcpkit/http";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import * as serverModule from "mcpkit/server";
import { connectInMemory } from "mcpkit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { startAuthorizationServer } from "../auth/authorization-server.js";
import { protectedMcp } from "../auth/helpers.js";

// The guides' snippets for skills, DPoP and workload identity, run as written: imports
// come from the real modules, the names a snippet takes as given are supplied here, and
// what it declares is handed back for assertions.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const MODULES: Record<string, unknown> = {
  "mcpkit/auth": auth,
  "mcpkit/client": clientModule,
  "mcpkit/http": httpModule,
  "mcpkit/server": serverModule,
};

/** The ```js blocks of the section of `doc` that starts with `heading`. */
function snippets(doc: string, heading: string): string[] {
  const text = readFileSync(join(ROOT, "docs", doc), "utf8");
  const start = text.indexOf(`${heading}\n`);
  expect(start, `${doc} has a section "${heading}"`).toBeGreaterThanOrEqual(0);
  const level = heading.split(" ")[0] as string;
  const end = text.indexOf(`\n${level} `, start + heading.length);
  const section = text.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1] as string);
}

const AsyncFunction = (async () => {}).constructor as new (
  ...args: string[]
) => (...values: unknown[]) => Promise<unknown>;

/** Runs a snippet with `given` in scope; resolves with its top-level constants. */
async function run(code: string, given: Record<string, unknown>): Promise<Record<string, unknown>> {
  const body = code.replace(/^import \{([^}]*)\} from "([^"]+)";$/gm, (_m, names: string, from: string) => {
    expect(MODULES[from], `a module the test knows: ${from}`).toBeDefined();
    return `const {${names}} = __modules[${JSON.stringify(from)}];`;
  });
  const declared = [...body.matchAll(/^const (?:\{[^}]*\}|(\w+))/gm)].flatMap((m) => (m[1] ? [m[1]] : []));
  const names = ["__modules", ...Object.keys(given)];
  const fn = new AsyncFunction(...names, `${body}\nreturn { ${declared.join(", ")} };`);
  return (await fn(MODULES, ...Object.values(given))) as Record<string, unknown>;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

describe("docs snippets", () => {
  it("server.md § Skills publishes the skills it shows", async () => {
    const [code] = snippets("server.md", "## Skills");
    const dir = mkdtempSync(join(tmpdir(), "mcpkit-doc-skill-"));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, "examples"));
    writeFileSync(join(dir, "SKILL.md"), "---\nname: refunds\ndescription: Refund requests\n---\n");
    writeFileSync(join(dir, "examples", "email.md"), "Dear customer,\n");
    const { server } = await run(code as string, { skillsDirectory: dir });
    const { client, close } = await connectInMemory(server as serverModule.McpServer);
    closers.push(close);
    const uris = (await client.skills()).map((s) => s.uri);
    expect(uris).toEqual(["skill://acme/billing/refunds/SKILL.md", "skill://pdf-processing/SKILL.md"]);
  });

  it("client.md § Skills loads a verified skill and reads its supporting file", async () => {
    const [code] = snippets("client.md", "## Skills");
    const server = serverModule.createServer({ name: "s", version: "1" });
    server.skill("pdf-processing", {
      files: {
        "SKILL.md": "---\nname: pdf-processing\ndescription: PDFs\n---\nHello\n",
        "references/FORMS.md": "# Forms\n",
      },
    });
    const { client, close } = await connectInMemory(server);
    closers.push(close);
    const printed: unknown[] = [];
    const console = { log: (v: unknown) => printed.push(v), error: (v: unknown) => printed.push(`error: ${v}`) };
    const { skills } = await run(code as string, { client, console });
    expect(skills).toHaveLength(1);
    expect(printed).toEqual(["---\nname: pdf-processing\ndescription: PDFs\n---\nHello\n"]);
  });

  it("authorization.md § DPoP-bound tokens configures a resource server that requires DPoP and nonces", async () => {
    const [code] = snippets("authorization.md", "### DPoP-bound tokens");
    const resource = "https://mcp.example.com/mcp";
    const { auth: configured } = await run(code as string, {
      resource,
      protectedResource: auth.protectedResource,
      jwtVerifier: auth.jwtVerifier,
    });
    const rs = configured as auth.ResourceServer;
    expect(rs.metadata()).toMatchObject({ dpop_bound_access_tokens_required: true });
    const refused = await rs.authenticate({
      method: "POST",
      url: resource,
      headers: new Headers({ authorization: "Bearer abc" }),
    });
    expect((refused as Response).status).toBe(401);
  });

  it("authorization.md § In code mounts an authorization server beside the MCP endpoint, on one handler", async () => {
    const [code] = snippets("authorization.md", "### In code");
    const server = serverModule.createServer({ name: "s", version: "1" });
    const { handler, as } = await run(code as string, { server });
    const fetchHandler = handler as { fetch(request: Request): Promise<Response> };
    const metadata = await fetchHandler.fetch(
      new Request("https://mcp.example.com/.well-known/oauth-authorization-server"),
    );
    expect(await metadata.json()).toMatchObject({
      issuer: "https://mcp.example.com",
      token_endpoint: "https://mcp.example.com/token",
    });
    const resource = await fetchHandler.fetch(
      new Request("https://mcp.example.com/.well-known/oauth-protected-resource/mcp"),
    );
    expect(await resource.json()).toMatchObject({ authorization_servers: [(as as auth.AuthorizationServer).issuer] });
    const unauthenticated = await fetchHandler.fetch(
      new Request("https://mcp.example.com/mcp", { method: "POST", body: "{}" }),
    );
    expect(unauthenticated.status).toBe(401);
  });

  it("authorization.md § Workload identity federation gets a token for the workload it configures", async () => {
    const [code] = snippets("authorization.md", "### Workload identity federation");
    const as = await startAuthorizationServer();
    closers.push(() => as.close());
    const { publicKey, privateKey } = await generateKeyPair("ES256");
    as.trustWorkload = { issuer: "https://platform.example", key: publicKey };
    const tools = serverModule.createServer({ name: "t", version: "1" });
    tools.tool("whoami", {}, (_a, ctx) => String((ctx.auth as { subject?: string }).subject));
    const mcp = await protectedMcp(tools, as);
    closers.push(mcp.close);
    const platform = {
      identityToken: (audience: string) =>
        new SignJWT({})
          .setProtectedHeader({ alg: "ES256" })
          .setIssuer("https://platform.example")
          .setSubject("ci-job")
          .setAudience(audience)
          .setExpirationTime("5m")
          .sign(privateKey),
    };
    const { oauth, ci } = await run(code as string, { url: mcp.url, platform });
    expect(oauth).toBeInstanceOf(OAuthClient);
    const client = new clientModule.Client({ name: "ci", version: "1" });
    await client.connect(streamableHttpClientTransport(mcp.url, { auth: ci as OAuthClient }));
    closers.push(() => client.close());
    expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "ci-job" }]);
  });
});
