import { fileURLToPath } from "node:url";
import type { Client } from "mcpkit/client";
import { openApiServer } from "mcpkit/openapi";
import { connectInMemory } from "mcpkit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApi, startPetstore } from "./apis.js";

// The Swagger Petstore's own document (YAML, OpenAPI 3.0) served as tools, each call made
// against a real Fastify implementation of it on 127.0.0.1 and checked on the API's side.

const PETSTORE = fileURLToPath(new URL("./fixtures/petstore.yaml", import.meta.url));

let api: RunningApi;
let client: Client;
let close: () => Promise<void>;

beforeAll(async () => {
  api = await startPetstore();
  const server = await openApiServer({
    document: PETSTORE,
    baseUrl: `${api.url}/api/v3`,
    credentials: { apiKey: { value: "special-key" } },
  });
  ({ client, close } = await connectInMemory(server));
});
afterAll(async () => {
  await close();
  await api.close();
});

const last = () => api.received.at(-1);
const textOf = (result: { content?: { type: string; text?: string }[] }) => result.content?.[0]?.text ?? "";

describe("the Petstore as tools", () => {
  it("lists one tool per operation, named by operationId, described and annotated from the method", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        "addPet",
        "createUser",
        "deleteOrder",
        "deletePet",
        "deleteUser",
        "findPetsByStatus",
        "findPetsByTags",
        "getInventory",
        "getOrderById",
        "getPetById",
        "getUserByName",
        "loginUser",
        "placeOrder",
        "updatePet",
        "updatePetWithForm",
        "uploadFile",
      ].sort(),
    );
    const get = tools.find((t) => t.name === "getPetById");
    expect(get?.description).toBe("Find pet by ID\n\nReturns a single pet.");
    expect(get?.annotations).toMatchObject({ readOnlyHint: true });
    expect(get?.inputSchema).toMatchObject({
      type: "object",
      properties: { petId: { type: "integer", description: "ID of pet to return" } },
      required: ["petId"],
    });
    expect(get?.outputSchema).toMatchObject({ type: "object", required: ["name", "photoUrls"] });
    expect(tools.find((t) => t.name === "deletePet")?.annotations).toMatchObject({ destructiveHint: true });
    expect(tools.find((t) => t.name === "updatePet")?.annotations).toMatchObject({ idempotentHint: true });
  });

  it("drops readOnly properties from request bodies and writeOnly ones from responses; 3.0 nullable becomes a null type", async () => {
    const { tools } = await client.listTools();
    const create = tools.find((t) => t.name === "createUser");
    const properties = create?.inputSchema.properties as Record<string, { properties: Record<string, unknown> }>;
    const body = properties.body as { properties: Record<string, unknown> };
    expect(Object.keys(body.properties)).not.toContain("id");
    expect(Object.keys(body.properties)).toContain("password");
    expect(body.properties.phone).toMatchObject({ type: ["string", "null"] });
    const output = create?.outputSchema as { properties: Record<string, unknown> };
    expect(Object.keys(output.properties)).toContain("id");
    expect(Object.keys(output.properties)).not.toContain("password");
  });

  it("gets a pet by path parameter: structuredContent is the API's JSON", async () => {
    const result = await client.callTool("getPetById", { petId: 1 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ id: 1, name: "Rex" });
    expect(last()).toMatchObject({ method: "GET", url: "/api/v3/pet/1" });
    expect(last()?.headers.accept).toContain("application/json");
  });

  it("wraps a JSON array answer as { result } (a tool's output is an object)", async () => {
    const result = await client.callTool("findPetsByStatus", { status: "sold" });
    expect(last()?.url).toBe("/api/v3/pet/findByStatus?status=sold");
    expect(result.structuredContent).toEqual({ result: [expect.objectContaining({ name: "Tom" })] });
    const byTags = await client.callTool("findPetsByTags", { tags: ["tag1", "tag2"] });
    expect(last()?.url).toBe("/api/v3/pet/findByTags?tags=tag1&tags=tag2");
    expect((byTags.structuredContent as { result: unknown[] }).result).toHaveLength(2);
  });

  it("sends a JSON body and answers with what the API made", async () => {
    const result = await client.callTool("addPet", { body: { name: "Fido", photoUrls: ["a.png"], status: "pending" } });
    expect(result.structuredContent).toMatchObject({ id: 3, name: "Fido" });
    expect(last()?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(String(last()?.body))).toEqual({ name: "Fido", photoUrls: ["a.png"], status: "pending" });
  });

  it("refuses arguments the schema does not allow before any request is made", async () => {
    const before = api.received.length;
    const result = await client.callTool("addPet", { body: { photoUrls: [] } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/name/);
    expect(api.received.length).toBe(before);
  });

  it("answers a 404 as an error result with the status and the API's error body", async () => {
    const result = await client.callTool("getPetById", { petId: 99 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("HTTP 404 Not Found");
    expect(textOf(result)).toContain('"message":"Pet not found"');
  });

  it("sends the configured API key where the document's security scheme says (a header)", async () => {
    const result = await client.callTool("getInventory", {});
    expect(result.structuredContent).toMatchObject({ available: 1, sold: 1 });
    expect(last()?.headers.api_key).toBe("special-key");
  });

  it("sends a header parameter and a DELETE", async () => {
    const result = await client.callTool("deletePet", { petId: 2, api_key: "special-key" });
    expect(result.isError).toBeFalsy();
    expect(last()).toMatchObject({ method: "DELETE", url: "/api/v3/pet/2" });
  });

  it("uploads bytes given as base64 (application/octet-stream)", async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]);
    const result = await client.callTool("uploadFile", {
      petId: 1,
      additionalMetadata: "photo",
      body: bytes.toString("base64"),
    });
    expect(result.structuredContent).toMatchObject({ message: "photo: 6 bytes" });
    expect(last()?.headers["content-type"]).toBe("application/octet-stream");
    expect(Buffer.compare(last()?.body as Buffer, bytes)).toBe(0);
  });

  it("answers a JSON string as { result }", async () => {
    const result = await client.callTool("loginUser", { username: "u", password: "p w" });
    expect(last()?.url).toBe("/api/v3/user/login?username=u&password=p%20w");
    expect(result.structuredContent).toEqual({ result: "token-1" });
  });
});
