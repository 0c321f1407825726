import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { workspaceServer } from "@mcpkit/servers/workspace";
import type { Client } from "mcpkit/client";
import { connectInMemory } from "mcpkit/testing";
import { describe, expect, it } from "vitest";
import { startFlipper } from "./flipper.js";
import { makeFixture, snapshot } from "./helpers.js";

// The symlink-swap race against the writing tools: while a local process flips a directory
// between a real one and a link out of the root, clients write, overwrite, create
// directories and move files below it. Nothing outside may be created, changed or removed.

const SECONDS = 2;
const WRITERS = 4;

type Write = (client: Client, n: number) => Promise<unknown>;

const WRITES: Record<string, (dir: string) => Write> = {
  write_file: (dir) => (client, n) => client.callTool("write_file", { path: join(dir, `w-${n}.txt`), content: "W\n" }),
  "write_file over a file": (dir) => (client) =>
    client.callTool("write_file", { path: join(dir, "sub", "f.txt"), content: "OVERWRITTEN\n" }),
  create_directory: (dir) => (client, n) =>
    client.callTool("create_directory", { path: join(dir, "sub", `d-${n}`, "e") }),
  move_file: (dir) => (client, n) =>
    client.callTool("move_file", { source: join(dir, `w-${n - 4}.txt`), destination: join(dir, "sub", `m-${n}.txt`) }),
};

describe("the sandbox under a symlink-swap race, writing", () => {
  it(`creates, changes and moves nothing outside the root (${SECONDS} s, ${WRITERS} writers)`, {
    timeout: 30_000,
  }, async () => {
    const fx = makeFixture();
    const base = join(fx.root, "node_modules", "victim");
    const dir = join(base, "dir");
    mkdirSync(join(dir, "sub"), { recursive: true });
    writeFileSync(join(dir, "sub", "f.txt"), "INSIDE\n");
    mkdirSync(join(fx.outside, "target", "sub"), { recursive: true });
    writeFileSync(join(fx.outside, "target", "sub", "f.txt"), "OUTSIDE\n");
    symlinkSync(join(fx.outside, "target"), join(base, ".link"));
    const before = snapshot(fx.outside);
    const workspace = await workspaceServer({ root: [fx.root], allowWrite: true });
    const flipper = await startFlipper(dir, join(base, ".real"), join(base, ".link"));
    let done = 0;
    let calls = 0;
    try {
      const deadline = Date.now() + SECONDS * 1000;
      const names = Object.keys(WRITES);
      await Promise.all(
        Array.from({ length: WRITERS }, async (_, w) => {
          const { client, close } = await connectInMemory(workspace.server);
          try {
            for (let i = 0; Date.now() < deadline; i++) {
              const name = names[i % names.length] as string;
              const result = (await (WRITES[name] as (d: string) => Write)(dir)(client, i * WRITERS + w).catch(() => ({
                isError: true,
              }))) as { isError?: boolean };
              calls++;
              if (!result.isError) done++;
            }
          } finally {
            await close();
          }
        }),
      );
    } finally {
      const flips = await flipper.stop();
      console.log(`symlink write race: ${calls} calls, ${done} done inside, ${flips} flips`);
      await workspace.close();
    }
    try {
      expect(done).toBeGreaterThan(0);
      expect(snapshot(fx.outside)).toEqual(before);
    } finally {
      fx.cleanup();
    }
  });
});
