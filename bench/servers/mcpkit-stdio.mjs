// mcpkit serving the benchmark's echo tool over stdio.
import { stdioServerTransport } from "mcpkit/stdio";
import { mcpkitEchoServer } from "./lib/mcpkit-echo.mjs";

const server = await mcpkitEchoServer();
await server.connect(stdioServerTransport());
