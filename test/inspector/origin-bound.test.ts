import { createStreamableHttpHandler, type Listening, listen } from "mcpkit/http";
import { createServer as createMcpServer } from "mcpkit/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Inspector, startInspector } from "../../packages/cli/src/inspector/index.js";
import { type InspectorApi, inspectorApi } from "./api.js";

// Credentials stay with the origin they were given for: the command line's -H headers go
// to the command line's URL's origin, headers the page gives to the URL it gave them with.
// A reconnection to another URL (which anyone driving the page may ask for) gets none.

interface Recorder {
  listening: Listening;
  url: string;
  /** The headers of every request it got, names in lower case. */
  headers: Record<string, string>[];
}

async function recordingServer(name: string): Promise<Recorder> {
  const handler = createStreamableHttpHandler(createMcpServer({ name, version: "1" }));
  const headers: Record<string, string>[] = [];
  const listening = await listen({
    fetch: (request) => {
      headers.push(Object.fromEntries(request.headers));
      return handler.fetch(request);
    },
    close: () => handler.close(),
  });
  return { listening, url: new URL("/mcp", listening.url).href, headers };
}

let a: Recorder;
let b: Recorder;
let inspector: Inspector;
let api: InspectorApi;

beforeAll(async () => {
  a = await recordingServer("a");
  b = await recordingServer("b");
  inspector = await startInspector({
    target: { kind: "http", url: a.url, headers: { Authorization: "Bearer cli-secret", "X-Api-Key": "k1" } },
  });
  api = await inspectorApi(inspector.url);
  await api.state("connected");
});

afterAll(async () => {
  api?.close();
  await inspector?.close();
  await a?.listening.close();
  await b?.listening.close();
});

/** Connects the inspector to `url` as the page does, and gives what that server received. */
async function connectTo(server: Recorder, body: Record<string, unknown>): Promise<Record<string, string>[]> {
  const before = server.headers.length;
  const state = await api.call<{ status: string }>("connect", body);
  expect(state.status).toBe("connected");
  return server.headers.slice(before);
}

describe("credentials bound to their origin", () => {
  it("sends the command line's headers to the command line's server", () => {
    expect(a.headers.length).toBeGreaterThan(0);
    for (const headers of a.headers)
      expect(headers).toMatchObject({ authorization: "Bearer cli-secret", "x-api-key": "k1" });
  });

  it("sends none of them to a new URL the page connects to", async () => {
    const got = await connectTo(b, { url: b.url });
    expect(got.length).toBeGreaterThan(0);
    for (const headers of got) {
      expect(headers.authorization).toBeUndefined();
      expect(headers["x-api-key"]).toBeUndefined();
    }
  });

  it("nor to the same server under another spelling of its address (another origin)", async () => {
    const other = a.url.replace("127.0.0.1", "localhost");
    const got = await connectTo(a, { url: other });
    for (const headers of got) expect(headers.authorization).toBeUndefined();
  });

  it("sends a header the page gives to the URL it gave it with, and not back to the first server", async () => {
    const got = await connectTo(b, { url: b.url, headers: { "X-Page": "typed in the page" } });
    for (const headers of got) expect(headers["x-page"]).toBe("typed in the page");
    const back = await connectTo(a, { url: `${a.url}?again` });
    expect(back.length).toBeGreaterThan(0);
    for (const headers of back) {
      expect(headers["x-page"]).toBeUndefined();
      // Back at the command line's origin (another path or query is the same origin): its headers again.
      expect(headers).toMatchObject({ authorization: "Bearer cli-secret", "x-api-key": "k1" });
    }
  });

  it("refuses headers the client sets itself, and values on more than one line", async () => {
    await expect(api.call("connect", { url: b.url, headers: { "Mcp-Session-Id": "x" } })).rejects.toThrow(
      "Mcp-Session-Id is set by the inspector's client, not by hand",
    );
    await expect(api.call("connect", { url: b.url, headers: { "X-Evil": "a\r\nHost: evil" } })).rejects.toThrow(
      "The value of X-Evil must be text on one line",
    );
    await expect(api.call("connect", { url: "http://user:pw@127.0.0.1:9/mcp" })).rejects.toThrow(
      "Give credentials as a header or a bearer token, not in the URL",
    );
  });
});
