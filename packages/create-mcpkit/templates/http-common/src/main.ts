#!/usr/bin/env node
import { start } from "./app.js";

// Serves MCP on http://127.0.0.1:PORT/mcp (PORT defaults to 3000). It listens on 127.0.0.1
// and answers only to local host names: to serve other machines, put it behind a proxy
// with TLS and authentication, and set allowedHosts (see README.md).
const served = await start(Number(process.env.PORT ?? 3000));
console.log(`{{name}}: MCP on ${served.url}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void served.close());
