// @ts-check
// Typed per-request values: a middleware looks the caller's account up once per request
// and hands it to every handler, typed by its key. docs/middleware.md quotes this file.
import { createServer, requestKey } from "mcpkit/server";

/** @typedef {{ name: string; plan: "free" | "pro" }} Account */

/**
 * The caller's account: set by the middleware, read by the handlers.
 * @type {import("mcpkit/server").RequestKey<Account>}
 */
export const account = requestKey("account");

/** @param {Map<string, Account>} accounts by the client's name */
export function createAccountsServer(accounts) {
  const server = createServer({ name: "accounts", version: "1.0.0" });

  // Once per request, before any handler: with OAuth, look the account up by ctx.principal.
  server.use((ctx, next) => {
    const found = accounts.get(ctx.client?.name ?? "");
    if (found) ctx.set(account, found);
    return next();
  });

  server.tool("plan", { description: "Says which plan the caller is on" }, (_args, ctx) => {
    const caller = ctx.get(account); // Account | undefined
    return caller ? `${caller.name} is on the ${caller.plan} plan` : "Unknown caller: sign up first";
  });
  return server;
}
