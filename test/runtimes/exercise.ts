import type { Client } from "mcpkit/client";
import { expect } from "vitest";

const text = (result: { content: { type: string; text?: string }[] }) =>
  result.content.map((block) => block.text ?? "").join("");

/**
 * What every runtime and framework must do with the portable server
 * (examples/runtimes/server.mjs): list its tools, check raw JSON Schema arguments, stream
 * progress before a result, and say where it runs and which validator checked.
 */
export async function exercisePortableServer(
  client: Client,
  expected: { runtime: RegExp; validator: "ajv" | "cfworker" },
): Promise<void> {
  expect((await client.tools()).map((tool) => tool.name).sort()).toEqual(["add", "countdown", "runtime"]);

  expect(text(await client.callTool("add", { a: 2, b: 3 }))).toBe("5");
  const refused = await client.callTool("add", { a: "two", b: 3 });
  expect(refused.isError).toBe(true);
  expect(text(refused)).toMatch(/^Invalid arguments for tool add: a: .*number/);

  // Progress goes out before the result, so the answer is an SSE stream.
  const progress: number[] = [];
  const countdown = await client.callTool("countdown", { from: 3 }, { onprogress: (p) => progress.push(p.progress) });
  expect(text(countdown)).toBe("liftoff");
  expect(progress).toEqual([1, 2, 3]);
  expect(text(await client.callTool("countdown", { from: 11 }))).toMatch(
    /^Invalid arguments for tool countdown: from: /,
  );

  const where = JSON.parse(text(await client.callTool("runtime", {}))) as { runtime: string; validator: string };
  expect(where.runtime).toMatch(expected.runtime);
  expect(where.validator).toBe(expected.validator);
}
