import { afterEach, describe, expect, it } from "vitest";
import { closeServed, mcpkitOverHttp, serveHttp } from "../serve/helpers.js";
import { within } from "../workspace/helpers.js";

// A 2026-07-28 client cancels by closing the request's stream (transports/streamable-http
// §Cancellation). That is an ordinary event for `mcpkit serve`: the server stops the call
// and prints nothing about it, least of all a stack. The real binary, a real port.

afterEach(closeServed);

describe("mcpkit serve --port: a 2026-07-28 client closing its request's stream", () => {
  it("stops the slow call and leaves no AbortError stack on the server's stderr", async () => {
    const served = await serveHttp("everything", []);
    const client = await mcpkitOverHttp(served.url, { protocolVersion: "2026-07-28" });
    expect(client.protocolVersion).toBe("2026-07-28");
    const controller = new AbortController();
    let started!: () => void;
    const firstProgress = new Promise<void>((resolve) => {
      started = resolve;
    });
    const call = client.callTool(
      "test_slow",
      { steps: 100, ms: 100 },
      { signal: controller.signal, onprogress: () => started() },
    );
    await within(firstProgress, 10_000, "the slow call's first progress");
    controller.abort();
    await expect(call).rejects.toThrow();
    // The server still serves, and stops cleanly: everything it printed is on stderr by then.
    expect(await client.callTool("test_simple_text")).toMatchObject({ content: [{ type: "text" }] });
    await client.close();
    const exited = new Promise((resolve) => served.child.once("exit", resolve));
    served.child.kill("SIGTERM");
    await within(exited, 10_000, "the server to exit");
    const stderr = served.stderr();
    expect(stderr).toContain("SIGTERM: stopping");
    expect(stderr).not.toMatch(/AbortError|\n\s+at /);
  });
});
