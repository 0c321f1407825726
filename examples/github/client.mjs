// @ts-check
// A client of the GitHub example: starts examples/github/server.mjs, searches repositories,
// then pages through a repository's issues, showing how the server reports pages and the
// rate limit it has left.
//
//   GITHUB_TOKEN=github_pat_… node examples/github/client.mjs [QUERY] [OWNER/REPO]
import { fileURLToPath } from "node:url";
import { Client } from "mcpkit/client";
import { stdioClientTransport } from "mcpkit/stdio";

const query = process.argv[2] ?? "model context protocol";
const [owner = "octocat", repo = "Hello-World"] = (process.argv[3] ?? "octocat/Hello-World").split("/");

// A stdio server inherits only a few variables: hand it the token and the API explicitly.
/** @type {Record<string, string>} */
const env = {};
for (const name of ["GITHUB_TOKEN", "GITHUB_API_URL"]) {
  const value = process.env[name];
  if (value) env[name] = value;
}

const client = new Client({ name: "github-client", version: "1.0.0" });
await client.connect(
  stdioClientTransport({
    command: process.execPath,
    args: [fileURLToPath(new URL("server.mjs", import.meta.url))],
    env,
  }),
);

/** The text of a tool result, or its error on stderr (and exit code 1). */
async function show(
  /** @type {string} */ title,
  /** @type {string} */ tool,
  /** @type {Record<string, unknown>} */ args,
) {
  const result = await client.callTool(tool, args);
  const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
  if (result.isError) {
    console.error(`${title}: ${text}`);
    process.exitCode = 1;
    return;
  }
  console.log(`\n${title}\n${text}`);
}

const tools = await client.tools();
console.log(`Tools: ${tools.map((t) => t.name).join(", ")}`);
await show(`Repositories about "${query}":`, "search_repositories", { query, perPage: 5 });
await show(`Open issues of ${owner}/${repo}, page 1:`, "list_issues", { owner, repo, perPage: 3 });
await show(`Page 2:`, "list_issues", { owner, repo, perPage: 3, page: 2 });
await client.close();
