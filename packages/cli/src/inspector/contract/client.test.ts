import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Inspector, startInspector } from "../server.js";
import { ApiError, type OpClient, opClient } from "./client.js";
import { KEY_HEADER } from "./operations.js";

// The page's typed client against the real backend, in this process: a name and a body from
// the operation table, the answer's value, or an ApiError with what the backend said.

let inspector: Inspector;
let origin: string;
let cookie: string;
let key: string;
const refusals: string[] = [];

const client = (withKey = key): OpClient =>
  opClient({
    fetch: (url, init) => fetch(url, init),
    base: `${origin}/api/`,
    headers: () => ({ cookie, origin, [KEY_HEADER]: withKey }),
    onRefused: (message) => refusals.push(message),
  });

beforeAll(async () => {
  // Nothing listens on port 9: the connection fails, which these calls do not need.
  inspector = await startInspector({ target: { kind: "http", url: "http://127.0.0.1:9/mcp", headers: {} } });
  origin = new URL(inspector.url).origin;
  const exchanged = await fetch(inspector.url, { redirect: "manual" });
  cookie = String(exchanged.headers.get("set-cookie")).split(";")[0] as string;
  key = String(exchanged.headers.get("location")).replace("/#key=", "");
});

afterAll(() => inspector?.close());

describe("the typed client", () => {
  it("gives an operation's answer as the table types it", async () => {
    const { roots } = await client().call("roots", { roots: [{ uri: "file:///work", name: "work" }] });
    expect(roots).toEqual([{ uri: "file:///work", name: "work" }]);
    expect(await client().call("cancel", { callId: "none" })).toEqual({ cancelled: false });
    const state = await client().call("disconnect");
    expect(state.roots).toEqual(roots);
  });

  it("throws what the backend refused, with its status", async () => {
    const refused = await client()
      .call("tools/call", { name: "x", arguments: [] as unknown as Record<string, unknown> })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ message: '"arguments" must be an object', status: 400 });
  });

  it("throws what the server answered (not connected, here) as it is", async () => {
    await expect(client().call("tools/list")).rejects.toThrow("Not connected to the server: connect first");
  });

  it("tells the page when the inspector refuses it (no key, or another run's)", async () => {
    const refused = await client("another run's key")
      .call("ping")
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 401 });
    expect(refusals).toEqual([
      "This page holds no key to this inspector: open a fresh link (press Enter in the terminal of mcpkit inspect)",
    ]);
  });

  it("does not compile with an operation the table lacks, or a body that is not its own", () => {
    const typed = client();
    // Never called: these lines are here for the type checker (npx tsc -p tsconfig.test.json).
    const _misspelt = () =>
      // @ts-expect-error: no operation "tools/cal"
      typed.call("tools/cal", { name: "add" });
    const _noName = () =>
      // @ts-expect-error: tools/call needs the tool's name
      typed.call("tools/call", { arguments: {} });
    const _wrongType = () =>
      // @ts-expect-error: a log level is one of the spec's
      typed.call("logging/setLevel", { level: "verbose" });
    const _bodyNeeded = () =>
      // @ts-expect-error: resources/read needs a URI
      typed.call("resources/read");
    const _doctorTarget = () =>
      // @ts-expect-error: the doctor reaches the connection's own target, never one the page names
      typed.call("doctor", { command: "node", args: ["evil.js"] });
    const _answerType = async () => {
      const { ms } = await typed.call("ping");
      // @ts-expect-error: ping answers a number of milliseconds
      const text: string = ms;
      return text;
    };
    expect(
      [_misspelt, _noName, _wrongType, _bodyNeeded, _doctorTarget, _answerType].every((f) => typeof f === "function"),
    ).toBe(true);
  });
});
