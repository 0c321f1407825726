// mcpkit serving the benchmark's echo tool over Streamable HTTP: sessions for
// BENCH_MODE=stateful, `sessions: false` otherwise (2026-07-28 requests are served either way).
import { createStreamableHttpHandler, listen } from "mcpkit/http";
import { MODE, ready } from "./lib/control.mjs";
import { mcpkitEchoServer } from "./lib/mcpkit-echo.mjs";

const handler = createStreamableHttpHandler(await mcpkitEchoServer(), { sessions: MODE === "stateful" });
const listening = await listen(handler, { port: 0, host: "127.0.0.1" });
ready(listening.server);
