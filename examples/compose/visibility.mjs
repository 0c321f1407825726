// docs/visibility.md: definitions shown to some callers only.
import { createServer } from "mcpkit/server";

const ADMINS = new Set(["alice"]);

export function createTeamServer() {
  const server = createServer({
    name: "team",
    version: "1.0.0",
    // Every session starts without the beta tool; a client can be let in later.
    onSession: (session) => session.disable("beta_search"),
  });
  server.tool("search", {}, () => "results");
  server.tool("beta_search", {}, () => "better results");
  server.tool("delete_all", { visible: ({ principal }) => ADMINS.has(principal ?? "") }, () => "deleted");
  server.prompt("desktop_tips", { visible: ({ clientInfo }) => clientInfo?.name === "desktop" }, () => "Tips");
  return server;
}
