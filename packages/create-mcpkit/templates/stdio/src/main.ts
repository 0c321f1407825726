#!/usr/bin/env node
import { stdioServerTransport } from "mcpkit/stdio";
import createAppServer from "./server.js";

// Serves the server over stdio: an MCP client (Claude Desktop, an IDE) starts this
// process and speaks JSON-RPC on its stdin and stdout. Log to stderr, never to stdout.
const session = await createAppServer().connect(stdioServerTransport());
await session.closed;
