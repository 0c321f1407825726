import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SkillVerificationError } from "../src/client/index.js";
import { loadSkill, type SkillsPeer } from "../src/client/skills.js";
import { ErrorCode } from "../src/jsonrpc/errors.js";
import type { SkillEntry } from "../src/protocol/skills.js";
import { createServer, readSkillDirectory } from "../src/server/index.js";
import { definitionOf } from "../src/server/mcp-server.js";
import { connectInMemory } from "../src/testing/index.js";

const SKILL_MD = `---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
metadata:
  version: "2.1.0"
  tags: [pdf, forms]
---

Read references/FORMS.md first.
`;
const FORMS = "# Forms\n\nFill every required field.\n";
const sha256 = (text: string) => `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;

function skillServer(pageSize?: number) {
  const server = createServer({ name: "skills", version: "1", ...(pageSize && { pageSize }) });
  server.skill("pdf-processing", {
    files: {
      "SKILL.md": SKILL_MD,
      "references/FORMS.md": FORMS,
      "templates/invoice.md": "# Invoice\n",
      "templates/regional/eu.md": "# EU invoice\n",
    },
  });
  return server;
}

const expectCode = async (promise: Promise<unknown>, code: number) => expect(promise).rejects.toMatchObject({ code });

describe("skills extension, server side (SEP-2640)", () => {
  it("declares the extension with directory reads, and lists each skill with verbatim frontmatter, digests and sizes", async () => {
    const { client, close } = await connectInMemory(skillServer());
    expect(client.serverCapabilities?.extensions).toEqual({
      "io.modelcontextprotocol/skills": { directoryRead: true },
    });
    expect(client.serverCapabilities?.resources).toBeDefined();
    const [entry, ...others] = await client.skills();
    expect(others).toEqual([]);
    expect(entry?.uri).toBe("skill://pdf-processing/SKILL.md");
    expect(entry?.frontmatter).toEqual({
      name: "pdf-processing",
      description: "Extract, fill, and assemble PDF documents",
      metadata: { version: "2.1.0", tags: ["pdf", "forms"] },
    });
    expect(entry?.resources).toContainEqual({
      uri: "skill://pdf-processing/SKILL.md",
      digest: sha256(SKILL_MD),
      size: Buffer.byteLength(SKILL_MD),
    });
    expect(entry?.resources).toContainEqual({
      uri: "skill://pdf-processing/references/FORMS.md",
      digest: sha256(FORMS),
      size: Buffer.byteLength(FORMS),
    });
    expect(entry?.resources).toHaveLength(4);
    await close();
  });

  it("serves every file as a resource, SKILL.md named and described by its frontmatter", async () => {
    const { client, close } = await connectInMemory(skillServer());
    const resources = await client.resources();
    expect(resources.find((r) => r.uri === "skill://pdf-processing/SKILL.md")).toMatchObject({
      name: "pdf-processing",
      description: "Extract, fill, and assemble PDF documents",
      mimeType: "text/markdown",
    });
    const read = await client.readResource("skill://pdf-processing/references/FORMS.md");
    expect(read.contents[0]).toMatchObject({ text: FORMS, mimeType: "text/markdown" });
    await close();
  });

  it("answers skills/get for a served skill and -32602 for any other URI", async () => {
    const { client, close } = await connectInMemory(skillServer());
    const [listed] = await client.skills();
    expect(await client.getSkill("skill://pdf-processing/SKILL.md")).toEqual(listed);
    await expectCode(client.getSkill("skill://other/SKILL.md"), ErrorCode.InvalidParams);
    await close();
  });

  it("carries the caching hints on skills/list and skills/get for 2026-07-28", async () => {
    const { client, close } = await connectInMemory(skillServer(), { protocolVersion: "2026-07-28" });
    expect(client.protocolEra).toBe("modern");
    const list = await client.request("skills/list", {});
    expect(list).toMatchObject({ ttlMs: 0, cacheScope: "public" });
    const get = await client.request("skills/get", { uri: "skill://pdf-processing/SKILL.md" });
    expect(get).toMatchObject({ ttlMs: 0, cacheScope: "public" });
    expect(get.nextCursor).toBeUndefined();
    await close();
  });

  it("lists a directory's direct children, subdirectories as inode/directory, and pages them", async () => {
    const { client, close } = await connectInMemory(skillServer(2));
    const read = (uri: string, cursor?: string) =>
      client.request<{ resources: { uri: string; mimeType?: string }[]; nextCursor?: string }>(
        "resources/directory/read",
        cursor ? { uri, cursor } : { uri },
      );
    const first = await read("skill://pdf-processing");
    expect(first.resources.map((r) => r.uri)).toEqual([
      "skill://pdf-processing/SKILL.md",
      "skill://pdf-processing/references",
    ]);
    expect(first.resources[1]?.mimeType).toBe("inode/directory");
    const second = await read("skill://pdf-processing", first.nextCursor);
    expect(second.resources.map((r) => [r.uri, r.mimeType])).toEqual([
      ["skill://pdf-processing/templates", "inode/directory"],
    ]);
    expect(second.nextCursor).toBeUndefined();
    const templates = await read("skill://pdf-processing/templates");
    expect(templates.resources.map((r) => r.uri)).toEqual([
      "skill://pdf-processing/templates/invoice.md",
      "skill://pdf-processing/templates/regional",
    ]);
    await expectCode(read("skill://pdf-processing/SKILL.md"), ErrorCode.InvalidParams);
    await expectCode(read("skill://nowhere"), ErrorCode.InvalidParams);
    await close();
  });

  it("refuses skills that break the format at registration", () => {
    const server = createServer({ name: "s", version: "1" });
    const md = (name: string) => `---\nname: ${name}\ndescription: d\n---\n`;
    expect(() => server.skill("a", { files: { "README.md": "x" } })).toThrow(/no SKILL.md/);
    expect(() => server.skill("a", { files: { "SKILL.md": "no frontmatter" } })).toThrow(/frontmatter/);
    expect(() => server.skill("Bad--Name", { files: { "SKILL.md": md("Bad--Name") } })).toThrow(/lowercase/);
    expect(() => server.skill("a", { files: { "SKILL.md": md("a"), "../escape.md": "x" } })).toThrow(/relative path/);
    expect(server.capabilities().extensions).toBeUndefined();
  });

  it("reports a SKILL.md whose frontmatter names another skill, and serves nothing of it", async () => {
    const errors: unknown[] = [];
    let reported!: () => void;
    const wasReported = new Promise<void>((resolve) => {
      reported = resolve;
    });
    const server = createServer({
      name: "s",
      version: "1",
      onError: (error) => {
        errors.push(error);
        reported();
      },
    });
    server.skill("team/a", { files: { "SKILL.md": "---\nname: b\ndescription: d\n---\n" } });
    await wasReported;
    expect(String(errors[0])).toMatch(/must end in the skill's name "b"/);
    expect(definitionOf(server).skills.size).toBe(0);
    expect(server.definitions().resources).toEqual([]);
  });

  it("declares nothing and answers -32601 without skills", async () => {
    const server = createServer({ name: "plain", version: "1" });
    server.resource("file:///a", {}, () => "a");
    const { client, close } = await connectInMemory(server);
    expect(client.serverCapabilities?.extensions).toBeUndefined();
    await expectCode(client.request("skills/list", {}), ErrorCode.MethodNotFound);
    await expectCode(client.skills(), ErrorCode.MethodNotFound);
    await close();
  });

  it("reads a skill directory from disk, hidden files left out", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcpkit-skill-"));
    mkdirSync(join(dir, "references"));
    writeFileSync(join(dir, "SKILL.md"), SKILL_MD);
    writeFileSync(join(dir, "references", "FORMS.md"), FORMS);
    writeFileSync(join(dir, ".secret"), "no");
    const files = await readSkillDirectory(dir);
    expect(Object.keys(files).sort()).toEqual(["SKILL.md", "references/FORMS.md"]);
    expect(Buffer.from(files["references/FORMS.md"] as Uint8Array).toString()).toBe(FORMS);
  });
});

/** The real client's requests, with reads counted and their text optionally replaced. */
async function peerOf(tamper: (uri: string, text: string) => string = (_uri, text) => text) {
  const { client, close } = await connectInMemory(skillServer());
  const reads: string[] = [];
  const peer: SkillsPeer = {
    request: <R extends object>(method: string, params?: object) => client.request<R>(method, params),
    async readResource(uri) {
      reads.push(uri);
      const result = await client.readResource(uri);
      return {
        contents: result.contents.map((c) => ("text" in c ? { ...c, text: tamper(uri, c.text as string) } : c)),
      };
    },
  };
  const [entry] = await client.skills();
  return { peer, entry: entry as SkillEntry, reads, client, close };
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SkillVerificationError);
  return (error as SkillVerificationError).reason;
};

describe("skills extension, client side (SEP-2640 §Integrity and verification)", () => {
  it("fetches nothing on listing, SKILL.md on load, and each supporting file when read", async () => {
    const { peer, entry, reads, close } = await peerOf();
    expect(reads).toEqual([]);
    const skill = await loadSkill(peer, entry);
    expect(skill.text).toBe(SKILL_MD);
    expect(reads).toEqual(["skill://pdf-processing/SKILL.md"]);
    expect(await skill.readText("references/FORMS.md")).toBe(FORMS);
    expect(reads).toEqual(["skill://pdf-processing/SKILL.md", "skill://pdf-processing/references/FORMS.md"]);
    await close();
  });

  it("loads by URI through skills/get", async () => {
    const { client, close } = await connectInMemory(skillServer());
    const skill = await client.loadSkill("skill://pdf-processing/SKILL.md");
    expect(skill.entry.frontmatter.name).toBe("pdf-processing");
    await close();
  });

  it("refuses content whose digest differs, even at the same size", async () => {
    const { peer, entry, close } = await peerOf((uri, text) =>
      uri.endsWith("SKILL.md") ? text.replace("first", "never") : text,
    );
    expect(await refusal(loadSkill(peer, entry))).toBe("digest");
    await close();
  });

  it("refuses content whose size differs", async () => {
    const { peer, entry, close } = await peerOf((uri, text) => (uri.endsWith("SKILL.md") ? `${text}more` : text));
    expect(await refusal(loadSkill(peer, entry))).toBe("size");
    await close();
  });

  it("refuses a SKILL.md whose frontmatter differs from the entry, though its digest matches", async () => {
    const { peer, entry, close } = await peerOf();
    const altered = { ...entry, frontmatter: { ...entry.frontmatter, description: "Something else" } };
    expect(await refusal(loadSkill(peer, altered))).toBe("frontmatter");
    await close();
  });

  it("refuses a supporting file that was tampered with, and one the entry does not list, without fetching it", async () => {
    const { peer, entry, reads, close } = await peerOf((uri, text) =>
      uri.endsWith("FORMS.md") ? text.toUpperCase() : text,
    );
    const skill = await loadSkill(peer, entry);
    expect(await refusal(skill.read("references/FORMS.md"))).toBe("digest");
    const before = reads.length;
    expect(await refusal(skill.read("references/OTHER.md"))).toBe("unlisted");
    expect(reads).toHaveLength(before);
    await expect(skill.read("../other/SKILL.md")).rejects.toThrow(TypeError);
    await close();
  });

  it("refuses a dynamic skill unless asked to load it unverified", async () => {
    const { peer, entry, close } = await peerOf();
    const dynamic: SkillEntry = { ...entry, resources: "dynamic" };
    expect(await refusal(loadSkill(peer, dynamic))).toBe("unverifiable");
    const skill = await loadSkill(peer, dynamic, { allowUnverified: true });
    expect(skill.text).toBe(SKILL_MD);
    await close();
  });
});
