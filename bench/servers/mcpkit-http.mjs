// mcpkit serving the benchmark's tools over Streamable HTTP: sessions for
// BENCH_MODE=stateful, `sessions: false` otherwise (2026-07-28 requests are served either way).
import { createStreamableHttpHandler, listen } from "mcpkit/http";
import { MODE, ready } from "./lib/control.mjs";
import { BENCH_SESSION_CAPS, mcpkitBenchServer } from "./lib/mcpkit-server.mjs";

const handler = createStreamableHttpHandler(await mcpkitBenchServer(), {
  sessions: MODE === "stateful",
  ...BENCH_SESSION_CAPS,
});
const listening = await listen(handler, { port: 0, host: "127.0.0.1" });
ready(listening.server);
