import { describe, expect, it } from "vitest";
import { createServer } from "../../src/server/index.js";
import { modernPeer } from "./helpers.js";

// A requestState names the request it belongs to by a digest of its parameters. JSON
// objects have no order: a client that sends the same arguments in another key order is
// retrying the same request, and one that changes a value is not.

function server() {
  const s = createServer({ name: "digest", version: "1" });
  s.tool("ship", {}, async (args, ctx) => {
    const answer = await ctx.elicit({
      key: "confirm",
      message: "Ship it?",
      schema: { type: "object", properties: { ok: { type: "boolean" } } },
    });
    return `${JSON.stringify(args)} ${answer.content?.ok ? "shipped" : "held"}`;
  });
  return s;
}

const CAPS = { elicitation: {} };
const yes = { confirm: { action: "accept", content: { ok: true } } };

describe("the multi round-trip request digest", () => {
  it("accepts a retry whose arguments come in another key order, at every depth", async () => {
    const { call } = await modernPeer(server());
    const args = { to: "Lyon", box: { width: 2, height: 3, tags: ["a", "b"] } };
    const first = (await call("tools/call", { name: "ship", arguments: args }, CAPS)).result;
    const requestState = first?.requestState as string;
    const reordered = { box: { tags: ["a", "b"], height: 3, width: 2 }, to: "Lyon" };
    const retried = await call(
      "tools/call",
      { inputResponses: yes, arguments: reordered, requestState, name: "ship" },
      CAPS,
    );
    expect(retried.error).toBeUndefined();
    expect(retried.result).toMatchObject({ resultType: "complete" });
  });

  it("refuses a retry that changed a value or the order of an array", async () => {
    const { call } = await modernPeer(server());
    const args = { to: "Lyon", box: { tags: ["a", "b"] } };
    const first = (await call("tools/call", { name: "ship", arguments: args }, CAPS)).result;
    const requestState = first?.requestState as string;
    for (const changed of [
      { to: "Paris", box: { tags: ["a", "b"] } },
      { to: "Lyon", box: { tags: ["b", "a"] } },
    ]) {
      const retried = await call(
        "tools/call",
        { name: "ship", arguments: changed, inputResponses: yes, requestState },
        CAPS,
      );
      expect(retried.error).toMatchObject({ code: -32602, message: expect.stringContaining("different request") });
    }
  });
});
