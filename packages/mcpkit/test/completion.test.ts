import { describe, expect, it } from "vitest";
import { createServer, MAX_COMPLETION_VALUES } from "../src/server/index.js";
import { connectInMemory } from "../src/testing/index.js";

function server() {
  const s = createServer({ name: "s", version: "1" });
  const many = Array.from({ length: 250 }, (_, i) => `item${i}`);
  s.prompt(
    "pick",
    {
      args: { kind: {}, name: {} },
      complete: {
        kind: (value) => ["fruit", "vegetable"].filter((k) => k.startsWith(value)),
        name: (value, { arguments: given }) =>
          (given.kind === "fruit" ? ["apple", "apricot", "banana"] : ["asparagus", "bean"]).filter((n) =>
            n.startsWith(value),
          ),
      },
    },
    () => "",
  );
  s.resourceTemplate(
    "items://{id}",
    { name: "item", complete: { id: (value) => many.filter((m) => m.startsWith(value)) } },
    () => "",
  );
  return s;
}

describe("server/utilities/completion", () => {
  it("completes prompt arguments, using context.arguments", async () => {
    const { client } = await connectInMemory(server());
    const ref = { type: "ref/prompt" as const, name: "pick" };
    expect(await client.complete({ ref, argument: { name: "kind", value: "f" } })).toEqual({
      completion: { values: ["fruit"], total: 1, hasMore: false },
    });
    const fruit = await client.complete({
      ref,
      argument: { name: "name", value: "a" },
      context: { arguments: { kind: "fruit" } },
    });
    expect(fruit.completion.values).toEqual(["apple", "apricot"]);
    const veg = await client.complete({
      ref,
      argument: { name: "name", value: "a" },
      context: { arguments: { kind: "veg" } },
    });
    expect(veg.completion.values).toEqual(["asparagus"]);
  });

  it("completes template variables, at most 100 values with total and hasMore", async () => {
    const { client } = await connectInMemory(server());
    const result = await client.complete({
      ref: { type: "ref/resource", uri: "items://{id}" },
      argument: { name: "id", value: "item" },
    });
    expect(MAX_COMPLETION_VALUES).toBe(100);
    expect(result.completion.values).toHaveLength(MAX_COMPLETION_VALUES);
    expect(result.completion.values[0]).toBe("item0");
    expect(result.completion).toMatchObject({ total: 250, hasMore: true });
  });

  it("answers an argument without a completer with no values, and unknown refs with -32602", async () => {
    const { client } = await connectInMemory(server());
    expect(
      await client.complete({ ref: { type: "ref/prompt", name: "pick" }, argument: { name: "other", value: "" } }),
    ).toEqual({ completion: { values: [], total: 0, hasMore: false } });
    await expect(
      client.complete({ ref: { type: "ref/prompt", name: "nope" }, argument: { name: "x", value: "" } }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      client.complete({ ref: { type: "ref/resource", uri: "nope://{x}" }, argument: { name: "x", value: "" } }),
    ).rejects.toMatchObject({ code: -32602 });
  });
});
