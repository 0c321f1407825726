import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFlipper } from "./flipper.js";
import { closeAll, connectStdio, type Fixture, makeFixture, textOf, waitFor, within } from "./helpers.js";

// Issue #17, defect 9: a directory flipped thousands of times a second in a watched root
// flooded the file watcher (a lookup and a rescan per event), and reads starved. The
// watcher batches its events now: the server keeps answering, and still sees changes.
// The server runs as its own process, so a starved one fails the test instead of hanging it.

let fx: Fixture;

beforeAll(() => {
  fx = makeFixture();
  mkdirSync(join(fx.root, "flip", "dir", "sub"), { recursive: true });
  symlinkSync(fx.outside, join(fx.root, "flip", ".link"));
});
afterAll(async () => {
  await closeAll();
  fx?.cleanup();
});

describe("the file watcher under a flood of events", () => {
  it("keeps answering reads while a watched directory flips, and still reports changes", async () => {
    const { client, close } = await connectStdio(["--root", fx.root]);
    try {
      const updates: string[] = [];
      client.on("notifications/resources/updated", (params) => updates.push(params.uri as string));
      const readme = pathToFileURL(join(fx.root, "README.md")).href;
      await client.subscribe(readme);
      const flipper = await startFlipper(
        join(fx.root, "flip", "dir"),
        join(fx.root, "flip", ".real"),
        join(fx.root, "flip", ".link"),
      );
      let reads = 0;
      let flipsWhileReading: number;
      try {
        // The flood is under way, and goes on for 2000 more flips at least while reading.
        await flipper.reached(2000);
        const from = flipper.flips();
        let flooded = false;
        flipper.reached(from + 2000).then(
          () => {
            flooded = true;
          },
          () => undefined, // Stopped first: the count below says so.
        );
        // Each read within 5 s; before, the first one never came back.
        while (reads < 20 || (!flooded && reads < 1000)) {
          const read = await within(client.callTool("read_file", { path: "README.md" }), 5000, `read ${reads + 1}`);
          expect(textOf(read)).toMatch(/# Demo/);
          reads++;
        }
        flipsWhileReading = flipper.flips() - from;
      } finally {
        await flipper.stop();
      }
      expect(flipsWhileReading).toBeGreaterThanOrEqual(2000);
      writeFileSync(join(fx.root, "README.md"), "# Demo, changed\n");
      await waitFor(() => updates.includes(readme), "the update of README.md after the flood", 10_000);
    } finally {
      await close();
    }
  }, 60_000);
});
