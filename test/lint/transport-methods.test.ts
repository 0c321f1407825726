import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

// A transport knows no MCP method but the two its binding's specification ties to HTTP
// (docs/architecture.md): `initialize`, whose answer assigns the session and on which a
// client falls back to HTTP+SSE, and `notifications/cancelled`, which ends a POST the
// client gave up on and which the server writes when a client closes a response stream.

const TRANSPORTS = fileURLToPath(new URL("../../packages/mcpkit/src/transports/", import.meta.url));
const METHOD =
  /^(initialize|ping|notifications\/[\w/]+|(tools|resources|prompts|completion|logging|sampling|elicitation|roots|tasks|server|subscriptions|skills)\/[\w/]+)$/;

const ALLOWED = [
  "http/client/messages.ts: initialize",
  "http/client/messages.ts: notifications/cancelled",
  "streamable-http/server/session-transport.ts: notifications/cancelled",
];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** Each MCP method named in a string literal of code (comments aside), as `file: method`. */
function methodsNamed(): string[] {
  const found = new Set<string>();
  for (const file of files(TRANSPORTS)) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      const code = line.trimStart();
      if (code.startsWith("//") || code.startsWith("*") || code.startsWith("/*")) continue;
      for (const m of code.matchAll(/["'`]([^"'`\s]+)["'`]/g))
        if (METHOD.test(m[1] as string)) found.add(`${relative(TRANSPORTS, file)}: ${m[1]}`);
    }
  }
  return [...found].sort();
}

it("transports name no MCP method but initialize and notifications/cancelled, where the binding needs them", () => {
  expect(methodsNamed()).toEqual(ALLOWED);
});
