// mcpkit-http.mjs with observability installed but idle, as most deployments run between
// traces: OpenTelemetry's instrumentation (mcpkit/otel) with no OpenTelemetry SDK
// registered (the API's no-op tracer and meter), and a timing middleware whose report
// does nothing. What the 0.8×-bare target of the HTTP paths is judged with.
import { createStreamableHttpHandler, listen } from "mcpkit/http";
import { timing } from "mcpkit/middleware";
import { serverTelemetry } from "mcpkit/otel";
import { MODE, ready } from "./lib/control.mjs";
import { BENCH_SESSION_CAPS, mcpkitBenchServer } from "./lib/mcpkit-server.mjs";

const server = await mcpkitBenchServer({ middleware: [serverTelemetry(), timing(() => {})] });
const handler = createStreamableHttpHandler(server, { sessions: MODE === "stateful", ...BENCH_SESSION_CAPS });
const listening = await listen(handler, { port: 0, host: "127.0.0.1" });
ready(listening.server);
