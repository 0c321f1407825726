import { describe, expect, it } from "vitest";
import { compileGlob } from "../../packages/servers/src/workspace/files/glob.js";

describe("compileGlob (search_files)", () => {
  it.each([
    ["*.ts", "a.ts", true],
    ["*.ts", "src/deep/a.ts", true],
    ["*.ts", "a.tsx", false],
    ["src/*.ts", "src/a.ts", true],
    ["src/*.ts", "src/lib/a.ts", false],
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/lib/deep/a.ts", true],
    ["**/test/**", "a/test/b/c.ts", true],
    ["**/test/**", "a/tests/b.ts", false],
    ["?.md", "a.md", true],
    ["?.md", "ab.md", false],
    ["[abc].txt", "b.txt", true],
    ["[!abc].txt", "b.txt", false],
    ["[a-c]x", "cx", true],
    ["[a-c]x", "dx", false],
    ["{README,docs/*}.md", "README.md", true],
    ["{README,docs/*}.md", "docs/guide.md", true],
    ["{README,docs/*}.md", "other/guide.md", false],
    ["*.{js,ts}", "x/y.js", true],
    ["a\\*b", "a*b", true],
    ["a\\*b", "axb", false],
    ["*", "anything/at/all", true],
  ])("%s against %s: %s", (pattern, path, expected) => {
    expect(compileGlob(pattern)(path)).toBe(expected);
  });

  it("refuses patterns that would blow up, and answers fast on adversarial ones", () => {
    expect(() => compileGlob("{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}")).toThrow(/more than 64 choices/);
    expect(() => compileGlob("x".repeat(501))).toThrow(/longer than 500/);
    const match = compileGlob(`${"*a".repeat(30)}b`);
    const started = Date.now();
    expect(match(`${"a".repeat(200)}`)).toBe(false);
    expect(compileGlob(`**/${"**/".repeat(20)}x`)(`${"d/".repeat(40)}y`)).toBe(false);
    expect(Date.now() - started).toBeLessThan(500);
  });
});
