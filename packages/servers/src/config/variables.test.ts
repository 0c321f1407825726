// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configuration values hold ${VAR} as text, which is under test
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigEntryError, expandVariables, readEnvFile } from "./variables.js";

// The variables a configuration's values refer to, replaced as MCP clients replace them,
// and the env files they name (the CLI's named servers and the gateway read both so).

const scope = { workspaceFolder: "/srv/app", home: "/home/ada", env: { TOKEN: "t0k", EMPTY: "" } };

describe("variables", () => {
  it("are expanded as the clients expand them", () => {
    expect(expandVariables("${TOKEN}|${env:TOKEN}|${PORT:-3000}|${EMPTY:-x}", scope)).toBe("t0k|t0k|3000|");
    expect(expandVariables("${workspaceFolder}/bin|${userHome}", scope)).toBe("/srv/app/bin|/home/ada");
    expect(expandVariables("a${pathSeparator}b${/}c", scope)).toBe(`a${sep}b${sep}c`);
  });

  it("that cannot be expanded are refused, saying which", () => {
    const refused =
      (value: string, s: Parameters<typeof expandVariables>[1] = scope) =>
      () =>
        expandVariables(value, s);
    expect(refused("${MISSING}")).toThrow(new ConfigEntryError("${MISSING} refers to MISSING, which is not set"));
    expect(refused("${env:MISSING}")).toThrow("${env:MISSING} refers to MISSING");
    expect(refused("${input:key}")).toThrow(/only VS Code can prompt for/);
    expect(refused("${workspaceFolder}", { ...scope, workspaceFolder: undefined })).toThrow(
      "${workspaceFolder} is used outside a project's file",
    );
    expect(refused("${MISSING}", { ...scope, envName: "the gateway's environment" })).toThrow(
      "${MISSING} refers to MISSING, which is not set in the gateway's environment",
    );
  });
});

describe("an env file", () => {
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "mcpkit-envfile-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("gives its variables, quotes, comments and export taken off", () => {
    writeFileSync(join(dir, ".env"), "# keys\nexport KEY=\"quoted\"\r\nPLAIN = 2 \nnot a line\nSINGLE='x y'\n");
    expect(readEnvFile(join(dir, ".env"))).toEqual({ KEY: "quoted", PLAIN: "2", SINGLE: "x y" });
  });

  it("that cannot be read is said, with why, named as the caller names it", () => {
    const missing = join(dir, "missing.env");
    expect(() => readEnvFile(missing)).toThrow(new ConfigEntryError(`the env file ${missing} cannot be read (ENOENT)`));
    expect(() => readEnvFile(missing, "its envFile")).toThrow(`its envFile ${missing} cannot be read (ENOENT)`);
  });
});
