import { example } from "./processes.js";
import { runtimeSuite } from "./suite.js";

runtimeSuite({
  runtime: "bun",
  userAgent: /^Bun\//,
  httpServer: [example("bun-server.mjs")],
  stdioServer: [example("stdio-server.mjs")],
  client: [example("client.mjs")],
});
