// mcpkit serving the benchmark's echo tool over stdio.
import { stdioServerTransport } from "mcpkit/stdio";
import { mcpkitBenchServer } from "./lib/mcpkit-server.mjs";

const server = await mcpkitBenchServer();
await server.connect(stdioServerTransport());
