import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Client } from "mcpkit/client";
import { connectInMemory } from "mcpkit/testing";
import { createWorkspaceServer } from "../../packages/cli/src/servers/workspace/index.js";
import { makeFixture, textOf } from "./helpers.js";

/**
 * The symlink-swap race of issue #17: a local process flips ROOT/<flip> between a real
 * directory and a symbolic link to a directory outside the root, as fast as it can, while
 * clients read ROOT/<flip>/f.txt every way the server offers. Any answer carrying the
 * outside file's marker is an escape. In node_modules, where the watcher does not look.
 */

const INSIDE = "INSIDE-MARKER";
const OUTSIDE = "OUTSIDE-SECRET-MARKER";

/** The flipper: renames a directory and a link in turn until its stdin closes; prints its count. */
const FLIPPER = `
const fs = require("fs");
const [dir, real, link] = process.argv.slice(1);
let flips = 0, stop = false;
process.stdin.on("end", () => { stop = true; }).resume();
process.stdout.write("ready\\n");
const burst = () => {
  for (let i = 0; i < 200; i++) {
    try {
      fs.renameSync(dir, real); fs.renameSync(link, dir);
      fs.renameSync(dir, link); fs.renameSync(real, dir);
      flips += 2;
    } catch {}
  }
  if (stop) { process.stdout.write("flips " + flips + "\\n"); process.exit(0); }
  setImmediate(burst);
};
burst();
`;

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
    const under = join(file, "..", "..");
    return textOf(await client.callTool("search_content", { query: "MARKER", path: under }));
  },
};

/** Runs the race for `seconds` with `readers` concurrent clients; returns what each read saw. */
export async function runSymlinkRace(options: { seconds: number; readers: number }): Promise<RaceFigures> {
  const fx = makeFixture();
  const base = join(fx.root, "node_modules", "victim");
  const dir = join(base, "dir");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "f.txt"), `${INSIDE}\n`);
  mkdirSync(join(fx.outside, "target"));
  writeFileSync(join(fx.outside, "target", "f.txt"), `${OUTSIDE}\n`);
  symlinkSync(join(fx.outside, "target"), join(base, ".link"));
  const workspace = await createWorkspaceServer({ roots: [fx.root] });
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
  let flipper: ChildProcess | undefined;
  const connections: { close(): Promise<void> }[] = [];
  try {
    flipper = spawn(process.execPath, ["-e", FLIPPER, dir, join(base, ".real"), join(base, ".link")], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    let out = "";
    const started = new Promise<void>((resolve, reject) => {
      flipper?.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
        if (out.includes("ready")) resolve();
      });
      flipper?.once("exit", () => reject(new Error(`the flipper exited early: ${out}`)));
    });
    const ended = new Promise<void>((resolve) => flipper?.once("exit", () => resolve()));
    await started;
    const deadline = Date.now() + options.seconds * 1000;
    const names = Object.keys(WAYS);
    const reader = async (n: number) => {
      const connected = await connectInMemory(workspace.server);
      connections.push(connected);
      for (let i = n; Date.now() < deadline; i++) {
        const way = names[i % names.length] as string;
        let seen: string;
        try {
          seen = await (WAYS[way] as Way)(connected.client, join(dir, "f.txt"));
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
    flipper.stdin?.end();
    await ended;
    figures.flips = Number(/flips (\d+)/.exec(out)?.[1] ?? 0);
    return figures;
  } finally {
    flipper?.kill("SIGKILL");
    for (const c of connections) await c.close().catch(() => undefined);
    await workspace.close();
    fx.cleanup();
  }
}
