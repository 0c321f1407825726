// Preloaded into a benchmark server (`node --import <this file> server.mjs`) to count what
// its JavaScript allocates over a window the runner marks with two SIGUSR2 signals: the
// growth of the V8 heap plus what every garbage collection in between freed (v8.GCProfiler).
// In a steady state that is the bytes allocated; it leaves out Buffers' backing stores,
// which live outside the V8 heap. The answer is one JSON line on stderr: {"alloc": {...}}.
import { GCProfiler, getHeapStatistics } from "node:v8";

let profiler;
let usedAtStart = 0;

process.on("SIGUSR2", () => {
  if (profiler === undefined) {
    profiler = new GCProfiler();
    profiler.start();
    usedAtStart = getHeapStatistics().used_heap_size;
    return;
  }
  const usedAtEnd = getHeapStatistics().used_heap_size;
  const { statistics } = profiler.stop();
  profiler = undefined;
  let freed = 0;
  let costUs = 0;
  let scavenges = 0;
  let others = 0;
  for (const gc of statistics) {
    freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
    costUs += gc.cost;
    if (gc.gcType === "Scavenge") scavenges++;
    else others++;
  }
  const alloc = { bytes: usedAtEnd - usedAtStart + freed, gcMs: costUs / 1000, scavenges, otherGcs: others };
  process.stderr.write(`${JSON.stringify({ alloc })}\n`);
});
