import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { workspaceServer } from "@mcpkit/servers/workspace";
import type { Client } from "mcpkit/client";
import { connectInMemory } from "mcpkit/testing";
import { type Flipper, startFlipper } from "./flipper.js";
import { makeFixture, textOf } from "./helpers.js";

/**
 * The symlink-swap race of issue #17: a local process flips ROOT/<flip> between a real
 * directory and a symbolic link to a directory outside the root, as fast as it can, while
 * clients read ROOT/<flip>/f.txt every way the server offers. Any answer carrying the
 * outside file's marker is an escape. In node_modules, where the watcher does not look.
 */

const INSIDE = "INSIDE-MARKER";
const OUTSIDE = "OUTSIDE-SECRET-MARKER";

export interface RaceFigures {
  seconds: number;
  readers: number;
  reads: number;
  insideReads: number;
  refused: number;
  outsideReads: number;
  flips: number;
  byWay: Record<string, { reads: number; outside: number }>;
}

type Way = (client: Client, file: string) => Promise<string>;

const WAYS: Record<string, Way> = {
  read_file: async (client, file) => textOf(await client.callTool("read_file", { path: file })),
  "resources/read": async (client, file) => {
    const read = await client.readResource(pathToFileURL(file).href);
    return read.contents.map((c) => ("text" in c ? c.text : "")).join("\n");
  },
  read_multiple_files: async (client, file) => textOf(await client.callTool("read_multiple_files", { paths: [file] })),
  search_content: async (client, file) => {
    const under = join(file, "..");
    return textOf(await client.callTool("search_content", { query: "MARKER", path: under }));
  },
};

/** Runs the race for `seconds` with `readers` concurrent clients; returns what each read saw. */
export async function runSymlinkRace(options: { seconds: number; readers: number }): Promise<RaceFigures> {
  const fx = makeFixture();
  const base = join(fx.root, "node_modules", "victim");
  const dir = join(base, "dir");
  // The flipped directory is the file's parent, or further up (then it is followed on the way).
  mkdirSync(join(dir, "sub"), { recursive: true });
  writeFileSync(join(dir, "f.txt"), `${INSIDE}\n`);
  writeFileSync(join(dir, "sub", "f.txt"), `${INSIDE}\n`);
  mkdirSync(join(fx.outside, "target", "sub"), { recursive: true });
  writeFileSync(join(fx.outside, "target", "f.txt"), `${OUTSIDE}\n`);
  writeFileSync(join(fx.outside, "target", "sub", "f.txt"), `${OUTSIDE}\n`);
  const files = [join(dir, "f.txt"), join(dir, "sub", "f.txt")];
  symlinkSync(join(fx.outside, "target"), join(base, ".link"));
  const workspace = await workspaceServer({ root: [fx.root] });
  const figures: RaceFigures = {
    seconds: options.seconds,
    readers: options.readers,
    reads: 0,
    insideReads: 0,
    refused: 0,
    outsideReads: 0,
    flips: 0,
    byWay: Object.fromEntries(Object.keys(WAYS).map((w) => [w, { reads: 0, outside: 0 }])),
  };
  let flipper: Flipper | undefined;
  const connections: { close(): Promise<void> }[] = [];
  try {
    flipper = await startFlipper(dir, join(base, ".real"), join(base, ".link"));
    const deadline = Date.now() + options.seconds * 1000;
    const names = Object.keys(WAYS);
    const reader = async (n: number) => {
      const connected = await connectInMemory(workspace.server);
      connections.push(connected);
      const read = (way: string, file: string) => (WAYS[way] as Way)(connected.client, file);
      for (let i = n; Date.now() < deadline; i++) {
        const way = names[i % names.length] as string;
        let seen: string;
        try {
          seen = await read(way, files[Math.floor(i / names.length) % files.length] as string);
        } catch (error) {
          seen = (error as Error).message;
        }
        const entry = figures.byWay[way] as { reads: number; outside: number };
        entry.reads++;
        figures.reads++;
        if (seen.includes(OUTSIDE)) {
          entry.outside++;
          figures.outsideReads++;
        } else if (seen.includes(INSIDE)) figures.insideReads++;
        else figures.refused++;
      }
    };
    await Promise.all(Array.from({ length: options.readers }, (_, n) => reader(n)));
    figures.flips = await flipper.stop();
    flipper = undefined;
    return figures;
  } finally {
    await flipper?.stop();
    for (const c of connections) await c.close().catch(() => undefined);
    await workspace.close();
    fx.cleanup();
  }
}
