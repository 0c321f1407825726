import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveServer } from "./server-target.js";

// The one server a command names, read the same way by every command that takes one: a
// name from a configuration file, and a usage error whose advice names the command in use.

const dir = mkdtempSync(join(tmpdir(), "mcpkit-server-target-"));
const config = join(dir, "mcp.json");
writeFileSync(
  config,
  JSON.stringify({ mcpServers: { weather: { command: "node", args: ["weather.js"], env: { KEY: "k" } } } }),
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the server a command names", () => {
  it.each(["inspect", "doctor", "lint", "snapshot", "record", "replay"])(
    "mcpkit %s NAME that no file holds: the advice names that command, not another",
    async (command) => {
      await expect(resolveServer(["nope"], ["node", "mcpkit", command, "nope"], { config }, command)).rejects.toThrow(
        `"nope" is not a URL; to start a server over stdio, put its command after -- (mcpkit ${command} -- nope …)`,
      );
    },
  );

  it.each(["inspect", "doctor", "lint", "snapshot", "record", "replay"])(
    "mcpkit %s node server.js (a command without --): the advice says to put it after --",
    async (command) => {
      const words = ["node", "server.js"];
      await expect(resolveServer(words, ["node", "mcpkit", command, ...words], { config }, command)).rejects.toThrow(
        `One server at a time: "server.js" is left over; to start a server over stdio, put its command after -- (mcpkit ${command} -- node server.js)`,
      );
      // Two URLs are two servers: no command to move.
      const urls = ["http://127.0.0.1:1/mcp", "http://127.0.0.1:2/mcp"];
      await expect(resolveServer(urls, ["node", "mcpkit", command, ...urls], { config }, command)).rejects.toThrow(
        /^One server at a time: "http:\/\/127\.0\.0\.1:2\/mcp" is left over$/,
      );
    },
  );

  it("gives a named server with the name it was given by; a URL or a command has none", async () => {
    const named = await resolveServer(["weather"], ["node", "mcpkit", "lint", "weather"], { config }, "lint");
    expect(named).toMatchObject({ name: "weather", target: { kind: "stdio", command: "node", args: ["weather.js"] } });
    const url = await resolveServer(["http://127.0.0.1:9/mcp"], [], { config }, "lint");
    expect(url).toEqual({ target: { kind: "http", url: "http://127.0.0.1:9/mcp", headers: {} } });
    const command = await resolveServer(["node", "s.js"], ["node", "mcpkit", "lint", "--", "node", "s.js"], {}, "lint");
    expect(command).toEqual({ target: { kind: "stdio", command: "node", args: ["s.js"], env: {} } });
  });
});
