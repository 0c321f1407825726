import { fileURLToPath } from "node:url";
import { type ApiCredentials, openApiServer } from "mcpkit/openapi";
import type { Context } from "mcpkit/server";
import { connectInMemory } from "mcpkit/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RunningApi, startKitchen } from "./apis.js";

// Credentials as a function of the request's context: the seam through which a per-person
// upstream token reaches the API. Each call asks again; what it returns is what the API sees.

const KITCHEN = fileURLToPath(new URL("./fixtures/kitchen.json", import.meta.url));
let api: RunningApi;
beforeAll(async () => {
  api = await startKitchen();
});
afterAll(() => api.close());

it("asks the credentials function on every call, with that call's context", async () => {
  const seen: Context[] = [];
  let n = 0;
  const server = await openApiServer({
    document: KITCHEN,
    baseUrl: api.url,
    include: { operations: ["getFile"] },
    credentials: (ctx): ApiCredentials => {
      seen.push(ctx);
      n++;
      return n === 1 ? { bearer: `person-${n}` } : { basic: { username: "svc", password: "pw:1" } };
    },
  });
  const { client, close } = await connectInMemory(server);
  await client.callTool("getFile", { name: "a" });
  expect(api.received.at(-1)?.headers.authorization).toBe("Bearer person-1");
  await client.callTool("getFile", { name: "b" });
  expect(api.received.at(-1)?.headers.authorization).toBe(`Basic ${Buffer.from("svc:pw:1").toString("base64")}`);
  expect(seen.map((ctx) => ctx.method)).toEqual(["tools/call", "tools/call"]);
  await close();
});

it("sends no Authorization at all when the function returns nothing", async () => {
  const server = await openApiServer({
    document: KITCHEN,
    baseUrl: api.url,
    include: { operations: ["getFile"] },
    credentials: () => undefined,
  });
  const { client, close } = await connectInMemory(server);
  await client.callTool("getFile", { name: "a" });
  expect(api.received.at(-1)?.headers.authorization).toBeUndefined();
  await close();
});

it("puts an API key in the query or a cookie when told to", async () => {
  const server = await openApiServer({
    document: KITCHEN,
    baseUrl: `${api.url}/`,
    include: { paths: ["/files/*"], methods: ["get"] },
    credentials: { apiKey: { name: "key", in: "query", value: "k 1" }, headers: { "x-extra": "1" } },
  });
  const { client, close } = await connectInMemory(server);
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["getFile"]);
  await client.callTool("getFile", { name: "a" });
  expect(api.received.at(-1)?.url).toBe("/files/a?key=k%201");
  expect(api.received.at(-1)?.headers["x-extra"]).toBe("1");
  await close();
});

it("refuses a base URL that is not http(s) or carries credentials, and a Swagger 2.0 document", async () => {
  await expect(openApiServer({ document: KITCHEN, baseUrl: "file:///etc" })).rejects.toThrow(/http\(s\)/);
  await expect(openApiServer({ document: KITCHEN, baseUrl: "http://u:p@127.0.0.1/" })).rejects.toThrow(/credentials/);
  await expect(
    openApiServer({ document: { swagger: "2.0", info: { title: "x", version: "1" }, paths: {} }, baseUrl: api.url }),
  ).rejects.toThrow(/OpenAPI 3\.0 and 3\.1/);
});

it("renames tools, and excludes by tag", async () => {
  const petstore = fileURLToPath(new URL("./fixtures/petstore.yaml", import.meta.url));
  const server = await openApiServer({
    document: petstore,
    baseUrl: api.url,
    exclude: { tags: ["user", "store"] },
    names: { getPetById: "pet_get", "DELETE /pet/{petId}": "pet_delete" },
  });
  const names = server.openapi.tools.map((t) => t.name);
  expect(names).toContain("pet_get");
  expect(names).toContain("pet_delete");
  expect(names).not.toContain("getInventory");
  expect(names).not.toContain("createUser");
  expect(names).toHaveLength(8);
});
