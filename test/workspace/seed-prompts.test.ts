import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type WorkspaceServer, workspaceServer } from "@mcpkit/servers/workspace";
import type { GetPromptResult } from "mcpkit";
import { connectInMemory } from "mcpkit/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { detectLanguage } from "../../packages/servers/src/workspace/language.js";
import { type Fixture, makeFixture } from "./helpers.js";

// review_code (seed 003) and explain-code (seed 004), built from the real workspace: the
// file read through the sandbox, the language from the name or the code, completion of
// file paths, languages and focuses. In both protocol eras.

let fx: Fixture;
let workspace: WorkspaceServer;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  fx = makeFixture();
  writeFileSync(join(fx.root, "src", "tool.py"), "def add(a, b):\n    return a + b\n");
  workspace = await workspaceServer({ root: [fx.root] });
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
afterAll(async () => {
  await workspace.close();
  fx.cleanup();
});

async function connect(era: "2025-11-25" | "2026-07-28") {
  const connected = await connectInMemory(workspace.server, { protocolVersion: era });
  closers.push(connected.close);
  return connected.client;
}

const textAt = (result: GetPromptResult, i: number) => {
  const content = result.messages[i]?.content as { type: string; text?: string; resource?: { text?: string } };
  return content.type === "resource" ? (content.resource?.text ?? "") : (content.text ?? "");
};

describe.each(["2025-11-25", "2026-07-28"] as const)("the seeds' code prompts, protocol %s", (era) => {
  it("lists review_code and explain-code with the seeds' arguments", async () => {
    const prompts = await (await connect(era)).prompts();
    expect(prompts.find((p) => p.name === "review_code")?.arguments).toEqual([
      expect.objectContaining({ name: "file_path", required: true }),
      expect.objectContaining({ name: "focus" }),
    ]);
    expect(prompts.find((p) => p.name === "explain-code")?.arguments).toEqual([
      expect.objectContaining({ name: "code", required: true }),
      expect.objectContaining({ name: "language" }),
    ]);
  });

  it("review_code embeds the file from the workspace, with its language and the focus", async () => {
    const client = await connect(era);
    const review = await client.getPrompt("review_code", { file_path: "src/lib/greet.ts", focus: "security" });
    expect(review.description).toBe(`Review of ${join(fx.root, "src/lib/greet.ts")} (focus: security)`);
    expect(textAt(review, 0)).toMatch(
      /^Please review the TypeScript code in .*greet\.ts \(below\)\. Focus on security above all\./,
    );
    expect(review.messages[1]?.content).toMatchObject({
      type: "resource",
      resource: {
        uri: expect.stringMatching(/^file:\/\/.*\/src\/lib\/greet\.ts$/),
        text: expect.stringContaining("export function greet"),
      },
    });
  });

  it("review_code refuses what the sandbox refuses, and files that are not text", async () => {
    const client = await connect(era);
    await expect(client.getPrompt("review_code", { file_path: "../outside/secret.txt" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/outside the allowed directories/),
    });
    await expect(client.getPrompt("review_code", { file_path: "secret-link" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/symbolic link/),
    });
    await expect(client.getPrompt("review_code", { file_path: "data.bin" })).rejects.toMatchObject({
      code: -32602,
      message: "data.bin is not a text file (application/octet-stream)",
    });
    await expect(client.getPrompt("review_code", { file_path: "big.bin" })).rejects.toMatchObject({ code: -32602 });
    await expect(client.getPrompt("review_code", { file_path: "nope.ts" })).rejects.toMatchObject({ code: -32602 });
  });

  it("completes file paths level by level, inside the roots only", async () => {
    const client = await connect(era);
    const complete = async (value: string) =>
      (
        await client.complete({
          ref: { type: "ref/prompt", name: "review_code" },
          argument: { name: "file_path", value },
        })
      ).completion.values;
    expect(await complete("sr")).toEqual(["src/"]);
    expect(await complete("src/")).toEqual(["src/index.ts", "src/lib/", "src/tool.py"]);
    expect(await complete("src/lib/g")).toEqual(["src/lib/greet.ts"]);
    expect(await complete("node")).toEqual([]);
    expect(await complete("../outside/")).toEqual([]);
    expect(await complete("escape/")).toEqual([]);
    const focus = await client.complete({
      ref: { type: "ref/prompt", name: "review_code" },
      argument: { name: "focus", value: "se" },
    });
    expect(focus.completion.values).toEqual(["security"]);
  });

  it("explain-code detects the language when none is given", async () => {
    const client = await connect(era);
    const detected = await client.getPrompt("explain-code", { code: "def add(a, b):\n    return a + b\n" });
    expect(detected.description).toBe("Explain Python code (language detected)");
    expect(textAt(detected, 0)).toBe(
      "Explain how this Python code works:\n\n```python\ndef add(a, b):\n    return a + b\n\n```",
    );
    const given = await client.getPrompt("explain-code", { code: "x", language: "Haskell" });
    expect(textAt(given, 0)).toMatch(/^Explain how this Haskell code works:/);
    const unknown = await client.getPrompt("explain-code", { code: "???" });
    expect(textAt(unknown, 0)).toMatch(/^Explain how this Unknown code works:/);
    const languages = await client.complete({
      ref: { type: "ref/prompt", name: "explain-code" },
      argument: { name: "language", value: "ja" },
    });
    expect(languages.completion.values).toEqual(["Java", "JavaScript"]);
  });
});

describe("language detection", () => {
  it.each([
    ["#!/usr/bin/env python3\nprint('hi')", "Python"],
    ["import os\n\ndef main():\n    print(os.name)\n", "Python"],
    ['package main\n\nimport "fmt"\n\nfunc main() {\n\tx := 1\n\tfmt.Println(x)\n}', "Go"],
    ['fn main() {\n    let mut n = 1;\n    println!("{}", n);\n}', "Rust"],
    ["interface User {\n  name: string;\n}\nconst u: User = { name: 'a' };", "TypeScript"],
    ["const add = (a, b) => a + b;\nconsole.log(add(1, 2));", "JavaScript"],
    ['public class Main {\n  public static void main(String[] a) { System.out.println("x"); }\n}', "Java"],
    ['#include <stdio.h>\nint main() { printf("x"); }', "C"],
    ["SELECT name FROM users WHERE id = 1;", "SQL"],
    ["<?php echo 'hi';", "PHP"],
  ])("%j is %s", (code, language) => {
    expect(detectLanguage(code)).toBe(language);
  });

  it("says nothing rather than guess from nothing", () => {
    expect(detectLanguage("hello there")).toBeUndefined();
  });
});
