// docs/visibility.md: definitions shown to some callers only.
import { createServer, principalOf } from "mcpkit/server";

// Principals are the token's issuer and subject (authorization.md § Who the caller is).
const ADMINS = new Set([principalOf({ issuer: "https://auth.example.com", subject: "alice" })]);

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
