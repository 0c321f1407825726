import { describe, expect, it } from "vitest";
import { SERVER_NAMES } from "../../built-in/catalog.js";
import { UsageError } from "../usage-error.js";
import { pickServer, serveCommand } from "./index.js";

// `mcpkit serve` is built for the command line it will parse: the server it names (found
// before any server's flags are known), that server's flags only, and a usage error for a
// flag that belongs to another server. Nothing here starts a server.

const serve = (...args: string[]) => serveCommand(["node", "mcpkit", "serve", ...args]);
const flagsOf = async (...args: string[]) => (await serve(...args)).options.map((o) => o.long);

describe("the server a command line names", () => {
  it("is the first operand that is no option's value, or the workspace", async () => {
    const common = (await serve("--help")).options;
    expect(pickServer(["weather", "--units", "imperial"], common)).toBe("weather");
    expect(pickServer(["--port", "3000", "--host", "0.0.0.0", "github"], common)).toBe("github");
    expect(pickServer(["--allow-write"], common)).toBe("workspace");
    expect(pickServer([], common)).toBe("workspace");
  });

  it("skips the value of a server's own flag, but not a server's name after a switch", async () => {
    const common = (await serve("--help")).options;
    expect(pickServer(["--root", "notes", "weather"], common)).toBe("weather");
    expect(pickServer(["--allow-write", "github"], common)).toBe("github");
  });

  it("stops at --: what follows is the proxied command", async () => {
    const common = (await serve("--help")).options;
    expect(pickServer(["proxy", "--", "weather"], common)).toBe("proxy");
    expect(pickServer(["--", "weather"], common)).toBe("workspace");
  });
});

describe("the flags of `serve NAME`", () => {
  it("are the common ones and the named server's own, made from its options' table", async () => {
    const weather = await flagsOf("weather");
    expect(weather).toEqual(expect.arrayContaining(["--port", "--stdio", "--provider", "--units", "--cache-ttl"]));
    expect(weather).not.toContain("--root");
    expect(await flagsOf("workspace")).toEqual(expect.arrayContaining(["--root", "--db", "--query-timeout"]));
  });

  it("refuse a flag of another server, saying whose it is", async () => {
    await expect(serve("weather", "--allow-write")).rejects.toThrow(
      new UsageError("--allow-write applies to the workspace and github servers only"),
    );
    await expect(serve("workspace", "--units=imperial")).rejects.toThrow("--units applies to the weather server only");
  });

  it("refuse a server that is neither built in nor a module's path, naming the built-in ones", async () => {
    await expect(serve("nonesuch")).rejects.toThrow(
      `Unknown server "nonesuch"; choose one of ${SERVER_NAMES.join(", ")}, or give your server module's path (./server.js)`,
    );
  });

  it("are all listed in help, each server's under its name", async () => {
    // Words only: help wraps its lines to the terminal's width.
    const help = (await serve("--help")).helpInformation().replace(/\s+/g, " ");
    for (const name of SERVER_NAMES) expect(help).toContain(`${name} options:`);
    // A flag two servers share is listed once, saying what it does for each.
    expect(help).toMatch(/--header <header> .*\(openapi: a header for every request to the API/);
  });
});
