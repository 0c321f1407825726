// @ts-check
// The portable server over stdio: `node`, `bun` or `deno run --allow-read` this file.
import { stdioServerTransport } from "mcpkit/stdio";
import { createPortableServer } from "./server.mjs";

await createPortableServer().connect(stdioServerTransport());
