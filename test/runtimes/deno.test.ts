import { example } from "./processes.js";
import { runtimeSuite } from "./suite.js";

// The permissions each example needs, as narrow as they go; --no-lock keeps Deno from
// writing a deno.lock into the repository.
const deno = (...permissions: string[]) => ["run", "--no-lock", ...permissions];

runtimeSuite({
  runtime: "deno",
  userAgent: /^Deno\//,
  httpServer: [...deno("--allow-net=127.0.0.1", "--allow-env=PORT", "--allow-read"), example("deno-server.mjs")],
  stdioServer: [...deno("--allow-read"), example("stdio-server.mjs")],
  client: [...deno("--allow-net=127.0.0.1", "--allow-read", "--allow-run", "--allow-env"), example("client.mjs")],
});
