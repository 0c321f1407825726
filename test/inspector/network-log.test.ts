import { describe, expect, it } from "vitest";
import { type NetworkEntry, recordingFetch } from "../../packages/cli/src/inspector/network-log.js";

// The network view's record of each HTTP exchange: when its body ends, and how.

/** A fetch answering with an SSE stream that stays open until the request is aborted. */
const openStream = async (_input: string | URL, init?: RequestInit) => {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("data: {}\n\n"));
      init?.signal?.addEventListener("abort", () => controller.error(init.signal?.reason));
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
};

describe("the network log", () => {
  it("marks a body that ended as ended, and a stream the client aborted as closed by it", async () => {
    const seen: NetworkEntry[] = [];
    const fetch = recordingFetch(openStream, (entry) => seen.push({ ...entry }));
    const controller = new AbortController();
    const response = await fetch("http://127.0.0.1:9/mcp", { method: "POST", signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    expect(seen.at(-1)).toMatchObject({ stream: true, bytes: 10 });
    expect(seen.at(-1)?.ended).toBeUndefined();
    controller.abort(new Error("cancelled"));
    expect(seen.at(-1)).toMatchObject({ ended: true, cancelled: true });

    const plain = recordingFetch(
      async () => new Response("{}"),
      (entry) => seen.push({ ...entry }),
    );
    await (await plain("http://127.0.0.1:9/mcp", { method: "POST", signal: new AbortController().signal })).text();
    expect(seen.at(-1)).toMatchObject({ ended: true, bytes: 2 });
    expect(seen.at(-1)?.cancelled).toBeUndefined();
  });
});
