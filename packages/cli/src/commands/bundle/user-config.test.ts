import { weatherOptions } from "@mcpkit/servers/weather/options";
import { workspaceOptions } from "@mcpkit/servers/workspace/options";
import { describe, expect, it } from "vitest";
import { builtInUserConfig, checkUserConfig } from "./user-config.js";

// A bundle's settings (manifest user_config): for a built-in server, read from its options'
// table; for your module, its `userConfig` export, checked.

describe("a built-in server's settings", () => {
  it("are its directories and its choices, each given to the server as its flag", () => {
    expect(builtInUserConfig(weatherOptions)).toEqual({
      provider: {
        type: "string",
        title: "Provider",
        description: weatherOptions.provider.help,
        default: "offline",
        flag: "--provider",
      },
      units: { type: "string", title: "Units", description: "metric or imperial", default: "metric", flag: "--units" },
    });
    expect(builtInUserConfig(workspaceOptions)).toEqual({
      root: {
        type: "directory",
        title: "Root",
        description: "a directory the file tools may use",
        multiple: true,
        required: true,
        flag: "--root",
      },
    });
  });

  it("never include a secret: it is read from the environment, not asked for in a flag", () => {
    const settings = builtInUserConfig({
      token: { type: "choice", choices: ["a", "b"], secret: true, env: ["TOKEN"], help: "a token" },
    });
    expect(settings).toEqual({});
  });
});

describe("your module's userConfig", () => {
  const valid = { type: "directory", title: "Notes", description: "Where notes are", env: "NOTES_DIR" };

  it("is taken as it is when each setting names its variable", () => {
    expect(checkUserConfig({ notes: valid }, "server.ts")).toEqual({ notes: valid });
    expect(checkUserConfig(undefined, "server.ts")).toEqual({});
  });

  it("is refused, saying what is missing, when a setting cannot be used", () => {
    expect(() => checkUserConfig([1], "server.ts")).toThrow(/server.ts: userConfig key "0" must be/);
    expect(() => checkUserConfig({ "bad key": valid }, "s.ts")).toThrow('key "bad key" must be letters, digits and _');
    expect(() => checkUserConfig({ n: { ...valid, type: "colour" } }, "s.ts")).toThrow('"n" needs a type');
    expect(() => checkUserConfig({ n: { ...valid, title: 1 } }, "s.ts")).toThrow('"n" needs a title and a description');
    expect(() => checkUserConfig({ n: { ...valid, env: undefined } }, "s.ts")).toThrow('"n" needs env');
    expect(() => checkUserConfig("x", "s.ts")).toThrow("s.ts: userConfig must be an object of settings");
  });
});
