import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { saverInto } from "./binary.js";

// --save DIR: binary content written under names of its own, never over another file.

let dir = "";
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), "mcpkit-save-")), "out");
});
afterEach(() => rmSync(join(dir, ".."), { recursive: true, force: true }));

const b64 = (text: string) => Buffer.from(text).toString("base64");

describe("saving binary content", () => {
  it("makes the folder, and names a file by its kind and type, its bytes decoded", () => {
    const save = saverInto(dir);
    const path = save(b64("png bytes"), "image", "image/png");
    expect(path).toBe(join(dir, "image-1.png"));
    expect(readFileSync(path, "utf8")).toBe("png bytes");
    expect(save(b64("?"), "blob", "application/x-unknown")).toBe(join(dir, "blob-2.bin"));
  });

  it("names a resource's file after its URI, made safe, and never overwrites one", () => {
    const save = saverInto(dir);
    expect(save(b64("a"), "blob", "text/plain", "file:///docs/report%20v2.pdf?x=1")).toBe(join(dir, "report_20v2.pdf"));
    expect(save(b64("b"), "blob", "text/plain", "mem://other/report%20v2.pdf")).toBe(join(dir, "report_20v2-2.pdf"));
    expect(save(b64("c"), "blob", undefined, "mem://x/..")).toBe(join(dir, "blob-1.bin"));
    expect(readdirSync(dir).sort()).toEqual(["blob-1.bin", "report_20v2-2.pdf", "report_20v2.pdf"]);
  });
});
