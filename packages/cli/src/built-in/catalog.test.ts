import { defaultTextOf, flagOf, readOptions } from "@mcpkit/servers/options";
import { describe, expect, it } from "vitest";
import { serveCommand } from "../commands/serve/index.js";
import { SERVER_NAMES, serverFlags } from "./catalog.js";

// Every built-in server as `mcpkit serve` knows it: its options' table makes flags that
// sit beside serve's own, and what help says of each default is a value the flag takes
// and means that default.

describe.each(SERVER_NAMES)("serve %s", (name) => {
  it("has a description and flags that do not clash with serve's own", async () => {
    const flags = await serverFlags(name);
    expect(flags?.description).toMatch(/\w/);
    // Commander refuses an option whose flag another option has.
    const command = await serveCommand(["node", "mcpkit", "serve", name]);
    for (const [option, described] of Object.entries(flags?.options ?? {})) {
      const flag = flagOf(option, described);
      if (flag) expect(command.options.filter((o) => o.long === flag)).toHaveLength(1);
    }
  });

  it("says each default as a value its flag reads back as that default", async () => {
    const table = (await serverFlags(name))?.options ?? {};
    for (const [option, described] of Object.entries(table)) {
      const shown = defaultTextOf(described);
      if (described.default === undefined || shown === undefined || described.type === "switch") continue;
      const read = readOptions({ [option]: described }, { [option]: shown }, {});
      expect(read[option], `${name} ${option}: "${shown}"`).toEqual(described.default);
    }
  });
});
