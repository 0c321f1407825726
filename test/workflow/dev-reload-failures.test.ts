import { createProxy } from "mcpkit/compose";
import { createServer } from "mcpkit/server";
import { connectInMemory, createLinkedPair } from "mcpkit/testing";
import { describe, expect, it } from "vitest";
import type { Generation } from "../../packages/cli/src/commands/dev/generation.js";
import { DevHost } from "../../packages/cli/src/commands/dev/host.js";

// `mcpkit dev` reloads on every change without anyone awaiting it: a reload must never
// reject. Whatever fails on the way (here, stopping the version it replaces) is said on the
// terminal, and the next change reloads as usual rather than finding the host wedged.

/** A generation served in memory: a real proxy in front of a real server with one tool. */
async function generation(tool: string, failToStop = false): Promise<Generation> {
  const server = createServer({ name: "module", version: "1" });
  server.tool(tool, {}, () => "ok");
  const [ours, theirs] = createLinkedPair();
  await server.connect(theirs);
  const proxy = await createProxy(ours);
  if (failToStop) {
    const close = proxy.close.bind(proxy);
    proxy.close = async () => {
      await close();
      throw new Error("the module's process would not stop");
    };
  }
  return { proxy, counts: { tools: 1, resources: 0, prompts: 0 } };
}

describe("mcpkit dev: a reload never rejects", () => {
  it("says that stopping the replaced version failed, serves the new one, and reloads again on the next change", async () => {
    const lines: string[] = [];
    const log = { info: (line: string) => lines.push(line), passthrough: () => {} };
    const versions = [generation("first", true), generation("second"), generation("third")];
    const host = await DevHost.loading("module.js", log, () => versions.shift() as Promise<Generation>);
    const { client, close } = await connectInMemory(host.server);
    const tools = async () => (await client.listTools()).tools.map((t) => t.name);
    expect(await tools()).toEqual(["first"]);

    await expect(host.reload("module.js changed")).resolves.toBeUndefined();
    expect(lines.join("\n")).toContain(
      "mcpkit dev: stopping the previous version failed (the module's process would not stop)",
    );
    expect(await tools()).toEqual(["second"]);

    await expect(host.reload("module.js changed again")).resolves.toBeUndefined();
    expect(await tools()).toEqual(["third"]);
    await close();
    await host.close();
  });
});
