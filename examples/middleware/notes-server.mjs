// @ts-check
// A notes server with the middleware most servers want: timing, a rate limit per caller,
// a cap on result sizes, the server's own errors mapped to protocol errors, and one
// middleware of its own (a read-only switch). docs/middleware.md quotes this file.
import { ErrorCode, McpError, mapErrors, rateLimit, responseSizeLimit, timing } from "mcpkit/middleware";
import { createServer } from "mcpkit/server";
import { z } from "zod";

class NoSuchNote extends Error {}

export function createNotesServer({ perSecond = 5, burst = 10 } = {}) {
  const notes = new Map([["1", "Buy milk"]]);
  /** @type {string[]} */
  const slowCalls = [];
  let readOnly = false;

  const server = createServer({
    name: "notes",
    version: "1.0.0",
    // Outermost first: timing sees the refusals of those after it.
    middleware: [
      timing(({ ctx, durationMs }) => {
        if (durationMs > 250) slowCalls.push(`${ctx.method} took ${Math.round(durationMs)} ms`);
      }),
      rateLimit({ perSecond, burst }), // per OAuth subject, else per client address
      responseSizeLimit({ maxBytes: 64 * 1024 }),
      mapErrors((error) =>
        error instanceof NoSuchNote ? new McpError(ErrorCode.InvalidParams, error.message) : undefined,
      ),
    ],
  });

  // A middleware of your own: answer in the handler's place while read-only.
  server.use((ctx, next) => {
    if (readOnly && ctx.method === "tools/call" && ctx.params?.name === "add_note")
      return { content: [{ type: "text", text: "Notes are read-only right now; try again later" }], isError: true };
    return next();
  });

  server.tool("add_note", { input: z.object({ text: z.string() }) }, ({ text }) => {
    const id = String(notes.size + 1);
    notes.set(id, text);
    return `Added note ${id}`;
  });
  server.resourceTemplate("note://{id}", { name: "note", mimeType: "text/plain" }, (_uri, { id }) => {
    const note = notes.get(String(id));
    if (note === undefined) throw new NoSuchNote(`There is no note ${id}: list notes with resources/list`);
    return note;
  });

  return { server, slowCalls, setReadOnly: (/** @type {boolean} */ value) => (readOnly = value) };
}
