import { fileURLToPath } from "node:url";
import type { Client } from "mcpkit/client";
import { openApiServer } from "mcpkit/openapi";
import { connectInMemory } from "mcpkit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApi, startKitchen } from "./apis.js";

// fixtures/kitchen.json (OpenAPI 3.1, with external files) against an API that echoes what
// it received: every parameter location, style and body kind, checked on the API's side;
// then the limits and the refusals that keep requests on the configured base URL.

const KITCHEN = fileURLToPath(new URL("./fixtures/kitchen.json", import.meta.url));

let api: RunningApi;
let elsewhere: RunningApi;
let client: Client;
let close: () => Promise<void>;

beforeAll(async () => {
  elsewhere = await startKitchen();
  api = await startKitchen({ elsewhere: `${elsewhere.url.replace("127.0.0.1", "localhost")}/echo/x/.1/;x=1` });
  const server = await openApiServer({
    document: KITCHEN,
    baseUrl: api.url,
    headers: { "user-agent": "kitchen-test" },
    credentials: { bearer: "api-token" },
    timeoutMs: 1000,
    maxResponseBytes: 64 * 1024,
    resources: true,
  });
  ({ client, close } = await connectInMemory(server));
});
afterAll(async () => {
  await close();
  await api.close();
  await elsewhere.close();
});

const last = () => api.received.at(-1);
const textOf = (result: { content?: { type: string; text?: string }[] }) => result.content?.[0]?.text ?? "";

describe("parameters", () => {
  it("serializes every location and style as OpenAPI says (label, matrix, form, spaceDelimited, pipeDelimited, deepObject, content)", async () => {
    const result = await client.callTool("echo_everything", {
      id: "a b/c",
      coords: [1, 2],
      point: { x: 3, y: 4 },
      ids: [5, 6],
      words: ["x", "y"],
      pipes: ["p", "q"],
      filter: { color: "red", size: "L" },
      page_size: 10,
      q: { deep: [1] },
      id_query: "same-name",
      "X-Trace": ["t1", "t2"],
      session: "s 1",
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const received = last();
    expect(received?.url).toBe(
      "/echo/a%20b%2Fc/.1,2/;x=3;y=4" +
        "?ids=5,6&words=x%20y&pipes=p%7Cq&filter%5Bcolor%5D=red&filter%5Bsize%5D=L&page%5Bsize%5D=10" +
        "&q=%7B%22deep%22%3A%5B1%5D%7D&id=same-name",
    );
    expect(received?.headers["x-trace"]).toBe("t1,t2");
    expect(received?.headers.cookie).toBe("session=s%201");
    expect(received?.headers.authorization).toBe("Bearer api-token");
    expect(received?.headers["user-agent"]).toBe("kitchen-test");
  });

  it("names arguments for models: sanitised (page[size] → page_size), a clash suffixed by its location, Authorization ignored", async () => {
    const { tools } = await client.listTools();
    const echo = tools.find((t) => t.name === "echo_everything");
    const names = Object.keys(echo?.inputSchema.properties ?? {});
    expect(names).toEqual(
      expect.arrayContaining(["id", "id_query", "page_size", "X-Trace", "session", "coords", "point", "q"]),
    );
    expect(names).not.toContain("Authorization");
    expect(echo?.inputSchema.required).toEqual(["id", "coords", "point"]);
    expect(echo?.inputSchema.additionalProperties).toBe(false);
  });

  it("never lets an argument set the Authorization header: the configured credentials are what the API sees", async () => {
    await client.callTool("echo_everything", { id: "1", coords: [1], point: { x: 1 }, Authorization: "Bearer mine" });
    // additionalProperties: false refuses it outright.
    expect(last()?.headers.authorization).not.toBe("Bearer mine");
  });
});

describe("bodies", () => {
  it("sends a form (application/x-www-form-urlencoded), its schema from an external YAML file", async () => {
    const result = await client.callTool("createNoteForm", { body: { title: "hi there", tags: ["a", "b"] } });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(last()?.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    expect(String(last()?.body)).toBe("title=hi+there&tags=a&tags=b");
    const { tools } = await client.listTools();
    const properties = tools.find((t) => t.name === "createNoteForm")?.inputSchema.properties as Record<
      string,
      { properties: object; required: string[] }
    >;
    const body = properties.body as { properties: object; required: string[] };
    expect(Object.keys(body.properties)).toEqual(["title", "tags"]);
    expect(body.required).toEqual(["title"]);
  });

  it("sends JSON with the document's media type", async () => {
    const result = await client.callTool("replaceNote", { body: { title: "t", tags: [] } });
    expect(result.structuredContent).toMatchObject({ method: "PUT", body: { title: "t", tags: [] } });
  });

  it("sends multipart/form-data: text fields as text, file parts from base64, objects as JSON parts", async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    const result = await client.callTool("uploadFiles", {
      body: { caption: "a cat", file: png.toString("base64"), meta: { w: 1 } },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(last()?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    const parts = (result.structuredContent as { body: Record<string, unknown> }).body;
    expect(parts.caption).toBe("a cat");
    expect(parts.file).toMatchObject({ filename: "file", base64: png.toString("base64") });
    expect(parts.meta).toMatchObject({ type: "application/json" });
  });

  it("sends text/plain, and answers text as text", async () => {
    const result = await client.callTool("postText", { body: "hello" });
    expect(textOf(result)).toBe("you said: hello");
    expect(last()?.headers["content-type"]).toBe("text/plain");
  });

  it("sends raw bytes (application/octet-stream) and refuses what is not base64", async () => {
    const ok = await client.callTool("putFile", { name: "x.bin", body: Buffer.from("abc").toString("base64") });
    expect(ok.structuredContent).toMatchObject({ body: Buffer.from("abc").toString("base64") });
    const bad = await client.callTool("putFile", { name: "x.bin", body: "not base64!" });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/base64/);
  });

  it("serves a recursive schema with $defs, and its answer validates", async () => {
    const { tools } = await client.listTools();
    const tree = tools.find((t) => t.name === "getTree");
    expect(JSON.stringify(tree?.outputSchema)).toContain('"$ref":"#/$defs/');
    const result = await client.callTool("getTree", {});
    expect(result.structuredContent).toMatchObject({ name: "root", children: [{ name: "leaf" }] });
  });
});

describe("errors and limits", () => {
  it("answers non-2xx as an error result carrying the status and the API's body", async () => {
    const result = await client.callTool("status", { code: 503 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^HTTP 503 Service Unavailable\n/);
    expect(textOf(result)).toContain('"detail":"as you asked"');
  });

  it("times out a request the API does not answer", async () => {
    const result = await client.callTool("slow", {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("The API did not answer within 1000 ms");
  });

  it("refuses an answer larger than maxResponseBytes, and reads one within it", async () => {
    const big = await client.callTool("big", { bytes: 64 * 1024 + 1 });
    expect(big.isError).toBe(true);
    expect(textOf(big)).toMatch(/larger than the limit/);
    const fits = await client.callTool("big", { bytes: 64 * 1024 });
    expect(textOf(fits)).toHaveLength(64 * 1024);
  });

  it("follows a redirect on the same origin", async () => {
    const result = await client.callTool("redirect", { to: "/echo/r/.1/;x=1" });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(JSON.parse(textOf(result))).toMatchObject({ url: "/echo/r/.1/;x=1" });
    expect(last()?.headers.authorization).toBe("Bearer api-token");
  });

  it("does not follow a redirect to another origin: the credentials never reach it", async () => {
    const before = elsewhere.received.length;
    const result = await client.callTool("redirect", { to: "elsewhere" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/redirected to another origin \(http:\/\/localhost:\d+\); not followed/);
    expect(elsewhere.received.length).toBe(before);
  });

  it("refuses a path parameter of . or .. (the request stays under the base URL)", async () => {
    const before = api.received.length;
    for (const name of ["..", "."]) {
      const result = await client.callTool("getFile", { name });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/may not be \. or \.\./);
    }
    expect(api.received.length).toBe(before);
  });

  it("encodes slashes, dots and percent signs inside a path parameter instead of letting them move the path", async () => {
    for (const name of ["../../admin", "%2e%2e", "a/../../b"]) {
      const result = await client.callTool("getFile", { name });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(last()?.url).toBe(`/files/${encodeURIComponent(name)}`);
    }
  });
});

describe("resources", () => {
  it("serves GET operations with path and query parameters as resource templates", async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    const uris = resourceTemplates.map((t) => t.uriTemplate);
    expect(uris).toContain("openapi://files/{name}");
    expect(uris).toContain("openapi://big{?bytes}");
    const read = await client.readResource("openapi://files/readme.md");
    expect(read.contents[0]).toMatchObject({ mimeType: "application/json" });
    expect(last()?.url).toBe("/files/readme.md");
  });
});
