import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectInMemory } from "mcpkit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "../options/usage-error.js";
import { openapiServer } from "./index.js";

// The factory, in this process: an OpenAPI document's operations as tools, configured as
// `mcpkit serve openapi` is. No request reaches the API here; test/openapi calls one.

let dir = "";
let document = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mcpkit-openapi-factory-"));
  document = join(dir, "pets.json");
  const op = (operationId: string, tags: string[]) => ({
    operationId,
    tags,
    responses: { "200": { description: "ok" } },
  });
  writeFileSync(
    document,
    JSON.stringify({
      openapi: "3.1.0",
      info: { title: "Pets", version: "1.0.0" },
      paths: {
        "/pets": { get: op("listPets", ["pets"]), post: op("addPet", ["pets", "admin"]) },
        "/stores": { get: op("listStores", ["stores"]) },
      },
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const toolsOf = async (options: Partial<Parameters<typeof openapiServer>[0]>) => {
  const made = await openapiServer({ document, baseUrl: "https://pets.example.com", ...options });
  const { client, close } = await connectInMemory(made.server);
  try {
    return { names: (await client.tools()).map((t) => t.name).sort(), summary: made.summary };
  } finally {
    await close();
    await made.close();
  }
};

describe("openapiServer", () => {
  it("serves one tool per operation, and says what it calls", async () => {
    expect(await toolsOf({})).toEqual({
      names: ["addPet", "listPets", "listStores"],
      summary: "3 operations of Pets 1.0.0, calling https://pets.example.com",
    });
  });

  it("narrows the operations by tag, by id and to reads", async () => {
    expect((await toolsOf({ tags: ["pets"] })).names).toEqual(["addPet", "listPets"]);
    expect((await toolsOf({ excludeTags: ["admin"] })).names).toEqual(["listPets", "listStores"]);
    expect((await toolsOf({ operations: ["listStores"] })).names).toEqual(["listStores"]);
    expect((await toolsOf({ readOnly: true })).names).toEqual(["listPets", "listStores"]);
  });

  it("refuses a base URL that is not http(s), and a credential variable that is not set", async () => {
    await expect(openapiServer({ document, baseUrl: "ftp://pets" })).rejects.toThrow(
      new UsageError("serve openapi needs --base-url, the API's http(s) URL"),
    );
    await expect(
      openapiServer({ document, baseUrl: "https://pets.example.com", bearerEnv: "PETS_TOKEN", env: {} }),
    ).rejects.toThrow("--bearer-env PETS_TOKEN: that environment variable is not set");
    await expect(
      openapiServer({
        document,
        baseUrl: "https://pets.example.com",
        basicEnv: "PETS_BASIC",
        env: { PETS_BASIC: "x" },
      }),
    ).rejects.toThrow('--basic-env: the variable must hold "user:password"');
  });
});
