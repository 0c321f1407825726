import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { watchAreas } from "../../packages/servers/src/workspace/files/watch.js";
import { type Fixture, makeFixture, waitFor } from "./helpers.js";

// The watcher batches events (one notification per path per batch, a bounded number of
// paths per batch), but loses none: a burst larger than one batch is carried over.

let fx: Fixture;
beforeAll(() => {
  fx = makeFixture();
});
afterAll(() => fx.cleanup());

describe("the file watcher's batches", () => {
  it("reports each of 600 new files once, over several batches, and a new directory's files too", async () => {
    const changed: string[] = [];
    let lists = 0;
    const root = realpathSync(fx.root);
    const watcher = watchAreas(
      [{ path: root, real: root }],
      { changed: (path) => changed.push(path), listChanged: () => lists++ },
      100,
    );
    try {
      await watcher.ready;
      const names = Array.from({ length: 600 }, (_, i) => join(root, "docs", `note-${i}.md`));
      for (const name of names) writeFileSync(name, "x\n");
      await waitFor(() => names.every((name) => changed.includes(name)), "all 600 files reported", 10_000);
      for (const name of names) expect(changed.filter((path) => path === name).length).toBeLessThanOrEqual(2);
      await waitFor(() => lists > 0, "the list change");
      expect(lists).toBeLessThan(20);

      mkdirSync(join(root, "fresh"));
      await waitFor(() => changed.includes(join(root, "fresh")), "the new directory", 10_000);
      // The new directory is watched once the batch has looked at it: a file made in it is seen.
      const inside = join(root, "fresh", "inside.txt");
      await waitFor(
        () => {
          writeFileSync(inside, String(Date.now()));
          return changed.includes(inside);
        },
        "a file in the new directory",
        10_000,
      );
    } finally {
      watcher.close();
    }
  });
});
