// @ts-check
// The GitHub server of the seeds ("search repositories, create issues, manage PRs") over
// stdio: `mcpkit serve github`, served from a script of yours. Read-only; pass --allow-write
// for the tools that write. The token comes from GITHUB_TOKEN, GitHub Enterprise Server's
// API from GITHUB_API_URL (https://HOST/api/v3).
//
//   GITHUB_TOKEN=github_pat_… node examples/github/server.mjs
import { githubServer } from "@mcpkit/servers/github";
import { stdioServerTransport } from "mcpkit/stdio";

const { server } = await githubServer({
  allowWrite: process.argv.includes("--allow-write"),
  ...(process.env.GITHUB_API_URL && { apiUrl: process.env.GITHUB_API_URL }),
  ...(process.env.GITHUB_TOKEN && { token: process.env.GITHUB_TOKEN }),
});
await server.connect(stdioServerTransport());
