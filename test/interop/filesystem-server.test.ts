/**
 * @modelcontextprotocol/server-filesystem, which takes its allowed directories from the
 * client's roots, asked right after initialize (outside any call): directly over stdio,
 * and behind `mcpkit serve proxy`, where each session's server must get that session's
 * roots, and no other's.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "mcpkit/client";
import { stdioClientTransport } from "mcpkit/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeServed, mcpkitOverHttp, type Served, serveHttp } from "../serve/helpers.js";
import { blocks, firstText, isPng, PNG_SIGNATURE, THIRD_PARTY } from "./helpers.js";

const base = mkdtempSync(join(tmpdir(), "mcpkit-fs-interop-"));
const [adaDir, bobDir] = ["ada", "bob"].map((name) => {
  const dir = mkdtempSync(join(base, `${name}-`));
  writeFileSync(join(dir, "hello.txt"), `hello from ${name}\n`);
  return dir;
}) as [string, string];
writeFileSync(join(adaDir, "pixel.png"), PNG_SIGNATURE);
const rootOf = (dir: string) => [{ uri: pathToFileURL(dir).href, name: dir }];

let direct: Client;
let proxy: Served;

beforeAll(async () => {
  direct = new Client({ name: "fs-direct", version: "1", roots: rootOf(adaDir) });
  const [command, ...args] = THIRD_PARTY.filesystem as [string, ...string[]];
  [, proxy] = await Promise.all([
    direct.connect(stdioClientTransport({ command, args, stderr: "ignore" })),
    serveHttp("proxy", ["--", command, ...args]),
  ]);
}, 60_000);

afterAll(async () => {
  await direct?.close();
  await closeServed();
  rmSync(base, { recursive: true, force: true });
});

/** The directories the server allows, once it has taken the client's roots (it asks after initialize). */
const allowed = async (client: Client) => firstText(await client.callTool("list_allowed_directories"));

describe("server-filesystem, directly", () => {
  it("takes the client's roots as its allowed directories, and reads inside them only", async () => {
    await expect.poll(() => allowed(direct), { timeout: 10_000 }).toContain(adaDir);
    expect(firstText(await direct.callTool("read_text_file", { path: join(adaDir, "hello.txt") }))).toBe(
      "hello from ada\n",
    );
    const refused = await direct.callTool("read_text_file", { path: join(bobDir, "hello.txt") });
    expect(refused.isError).toBe(true);
  });
});

describe("server-filesystem behind mcpkit serve proxy", () => {
  it("declares what the server declares, and lists its tools", async () => {
    const client = await mcpkitOverHttp(proxy.url);
    expect(client.serverCapabilities).toEqual(direct.serverCapabilities);
    expect((await client.tools()).map((t) => t.name).sort()).toEqual((await direct.tools()).map((t) => t.name).sort());
  });

  it("gives each session's server that session's roots, asked outside any call, and follows their changes", async () => {
    const [ada, bob] = await Promise.all([
      mcpkitOverHttp(proxy.url, { roots: rootOf(adaDir) }),
      mcpkitOverHttp(proxy.url, { roots: rootOf(bobDir) }),
    ]);
    await expect.poll(() => allowed(ada), { timeout: 10_000 }).toContain(adaDir);
    await expect.poll(() => allowed(bob), { timeout: 10_000 }).toContain(bobDir);
    expect(await allowed(ada)).not.toContain(bobDir);
    expect(firstText(await bob.callTool("read_text_file", { path: join(bobDir, "hello.txt") }))).toBe(
      "hello from bob\n",
    );
    expect((await bob.callTool("read_text_file", { path: join(adaDir, "hello.txt") })).isError).toBe(true);
    bob.setRoots([...rootOf(bobDir), ...rootOf(adaDir)]);
    await expect.poll(() => allowed(bob), { timeout: 10_000 }).toContain(adaDir);
    expect(await allowed(ada)).not.toContain(bobDir);
  });

  it("passes binary results through whole", async () => {
    const ada = await mcpkitOverHttp(proxy.url, { roots: rootOf(adaDir) });
    await expect.poll(() => allowed(ada), { timeout: 10_000 }).toContain(adaDir);
    const media = await ada.callTool("read_media_file", { path: join(adaDir, "pixel.png") });
    const [image] = blocks(media);
    expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(isPng(image?.data)).toBe(true);
  });
});
