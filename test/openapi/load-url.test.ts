import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadOpenApiDocument } from "mcpkit/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// A document named by URL: read from its origin (this machine's, here, as a local API under
// development would be), with the files it references there and that origin's redirects,
// and never from this machine's disk however it asks. Everything else it names, and every
// redirect off its origin, goes through the address guard: names judged by what they
// resolve to, addresses by their bytes, whatever the spelling.

const dir = mkdtempSync(join(tmpdir(), "mcpkit-openapi-url-"));
const SECRET = join(dir, "secret.json");
writeFileSync(SECRET, JSON.stringify({ type: "object", description: "the-secret-on-disk" }));

const documentWith = (schema: object) => ({
  openapi: "3.0.3",
  info: { title: "Pets", version: "1" },
  paths: {
    "/pets/{id}": {
      get: {
        operationId: "getPet",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: { "200": { description: "the pet", content: { "application/json": { schema } } } },
      },
    },
  },
});

/** Serves `files` by path; `redirects` sends a path elsewhere. */
function serve(files: Record<string, string>, redirects: Record<string, (port: number) => string> = {}) {
  const requested: string[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    requested.push(path);
    const to = redirects[path];
    if (to) return res.writeHead(302, { location: to((server.address() as { port: number }).port) }).end();
    const body = files[path];
    if (body === undefined) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": path.endsWith(".yaml") ? "application/yaml" : "application/json" }).end(body);
  });
  return { server, requested };
}

const servers: Server[] = [];
async function start(files: Record<string, string>, redirects?: Record<string, (port: number) => string>) {
  const made = serve(files, redirects);
  await new Promise<void>((resolve) => made.server.listen(0, "127.0.0.1", resolve));
  servers.push(made.server);
  return { url: `http://127.0.0.1:${(made.server.address() as { port: number }).port}`, requested: made.requested };
}

let api: { url: string; requested: string[] };
beforeAll(async () => {
  api = await start({
    "/openapi.json": JSON.stringify(documentWith({ $ref: "./schemas/pet.yaml" })),
    "/schemas/pet.yaml": "type: object\nproperties:\n  name:\n    type: string\n",
    "/steals.json": JSON.stringify(documentWith({ $ref: pathToFileURL(SECRET).href })),
    "/moved.json": "",
  });
});
afterAll(() => {
  for (const server of servers) server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("an OpenAPI document named by URL", () => {
  it("loads from this machine's origin, with the files it references there (YAML included)", async () => {
    const document = await loadOpenApiDocument(`${api.url}/openapi.json`);
    const schema = JSON.stringify(document.paths?.["/pets/{id}"]);
    expect(schema).toContain('"name":{"type":"string"}');
    expect(api.requested).toEqual(expect.arrayContaining(["/openapi.json", "/schemas/pet.yaml"]));
  });

  it("never reads this machine's files, whatever it references", async () => {
    const loading = loadOpenApiDocument(`${api.url}/steals.json`);
    await expect(loading).rejects.toThrow(/Cannot load/);
    await expect(loading).rejects.not.toThrow(/the-secret-on-disk/);
  });

  it("follows its own origin's redirects (the origin you named is yours, even on this machine)", async () => {
    const moving = await start(
      { "/v3/openapi.json": JSON.stringify(documentWith({ type: "object" })) },
      { "/openapi.json": (port) => `http://127.0.0.1:${port}/v3/openapi.json` },
    );
    await expect(loadOpenApiDocument(`${moving.url}/openapi.json`)).resolves.toBeDefined();
    expect(moving.requested).toEqual(["/openapi.json", "/v3/openapi.json"]);
  });

  it("does not fetch what it references by a name that resolves to an internal address (judged after the lookup)", async () => {
    // localhost is another origin than 127.0.0.1: a name, judged by what it resolves to.
    const other = await start({ "/pet.json": JSON.stringify({ type: "object" }) });
    const port = new URL(other.url).port;
    const pointing = await start({
      "/openapi.json": JSON.stringify(documentWith({ $ref: `http://localhost:${port}/pet.json` })),
    });
    await expect(loadOpenApiDocument(`${pointing.url}/openapi.json`)).rejects.toThrow(
      "localhost resolves to a private or reserved address: 127.0.0.1 (loopback, 127.0.0.0/8)",
    );
    expect(other.requested).toEqual([]);
  });

  it("does not fetch what it references by another spelling of an internal address", async () => {
    const other = await start({ "/pet.json": JSON.stringify({ type: "object" }) });
    const port = new URL(other.url).port;
    for (const host of ["[::ffff:7f00:1]", "[::7f00:1]", "[::ffff:0:7f00:1]", "[64:ff9b::7f00:1]", "[fec0::1]"]) {
      const pointing = await start({
        "/openapi.json": JSON.stringify(documentWith({ $ref: `http://${host}:${port}/pet.json` })),
      });
      await expect(loadOpenApiDocument(`${pointing.url}/openapi.json`), host).rejects.toThrow(
        "is a private or reserved address",
      );
    }
    expect(other.requested).toEqual([]);
  });

  it("does not follow its origin's redirect to a name that resolves to an internal address", async () => {
    // localhost is another origin than 127.0.0.1, on the same machine.
    const other = await start({ "/openapi.json": JSON.stringify(documentWith({ type: "object" })) });
    const port = new URL(other.url).port;
    const moving = await start({}, { "/openapi.json": () => `http://localhost:${port}/openapi.json` });
    await expect(loadOpenApiDocument(`${moving.url}/openapi.json`)).rejects.toThrow(
      "localhost resolves to a private or reserved address: 127.0.0.1 (loopback, 127.0.0.0/8)",
    );
    expect(moving.requested).toEqual(["/openapi.json"]);
    expect(other.requested).toEqual([]);
  });

  it("does not follow a referenced file's redirect back into this machine", async () => {
    // The document's origin redirects its referenced file to another origin that is internal.
    const other = await start({ "/pet.json": JSON.stringify({ type: "object", description: "internal" }) });
    const port = new URL(other.url).port;
    const pointing = await start(
      { "/openapi.json": JSON.stringify(documentWith({ $ref: "./pet.json" })) },
      { "/pet.json": () => `http://localhost:${port}/pet.json` },
    );
    await expect(loadOpenApiDocument(`${pointing.url}/openapi.json`)).rejects.toThrow(
      "localhost resolves to a private or reserved address",
    );
    expect(other.requested).toEqual([]);
  });
});

describe("a document on disk", () => {
  // A vendor's document saved beside your code: its references reach its own folder only.
  const api = join(dir, "project", "api");
  const write = (path: string, value: object) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(value));
  };
  const documentAt = (name: string, schema: object) => {
    const file = join(api, name);
    write(file, documentWith(schema));
    return file;
  };

  it("reads no file outside its folder: not by ../, a file: URL, an absolute path or a link leading out", async () => {
    write(join(api, "common", "pet.json"), { type: "object", description: "beside it" });
    symlinkSync(SECRET, join(api, "common", "linked.json"));
    for (const [name, ref] of [
      ["climbs.json", "../../secret.json"],
      ["file-url.json", pathToFileURL(SECRET).href],
      ["absolute.json", SECRET],
      ["linked.json", "./common/linked.json"],
    ] as const) {
      const loading = loadOpenApiDocument(documentAt(name, { $ref: ref }));
      await expect(loading).rejects.toThrow(`is outside ${api}: a document's references stay in its folder`);
      await expect(loading).rejects.not.toThrow(/the-secret-on-disk/);
    }
    // Its own folder, below and back: read.
    const own = await loadOpenApiDocument(documentAt("own.json", { $ref: "./common/../common/pet.json" }));
    expect(JSON.stringify(own)).toContain("beside it");
  });

  it("reads the files under fileRoot when it names a wider folder", async () => {
    const document = await loadOpenApiDocument(documentAt("wider.json", { $ref: "../../secret.json" }), {
      fileRoot: dir,
    });
    expect(JSON.stringify(document)).toContain("the-secret-on-disk");
  });
});
