import pc from "picocolors";
import { describe, expect, it } from "vitest";
import { base64Bytes, contentLines, messageLines, resourceLines } from "./content.js";

// How `mcpkit call` prints content: text as it is, binary never dumped on a terminal but
// described (and saved with --save), resources and links by their URI.

const c = pc.createColors(false);
const PNG = Buffer.from("not really a png, eighteen").toString("base64");

describe("content blocks as lines", () => {
  it("prints text as it is", () => {
    expect(contentLines({ type: "text", text: "hello\nworld" }, c)).toEqual(["hello\nworld"]);
  });

  it("describes an image or audio by its type and size, never its bytes", () => {
    expect(contentLines({ type: "image", data: PNG, mimeType: "image/png" }, c)).toEqual([
      "[image image/png, 26 bytes]",
    ]);
    expect(contentLines({ type: "audio", data: "", mimeType: "audio/wav" }, c)).toEqual(["[audio audio/wav, 0 bytes]"]);
  });

  it("says where --save put binary content", () => {
    const saved: string[] = [];
    const save = (data: string, kind: string, mimeType?: string) => {
      saved.push(`${kind} ${mimeType} ${data}`);
      return "out/image-1.png";
    };
    expect(contentLines({ type: "image", data: PNG, mimeType: "image/png" }, c, save)).toEqual([
      "[image image/png, 26 bytes → out/image-1.png]",
    ]);
    expect(saved).toEqual([`image image/png ${PNG}`]);
  });

  it("shows a link by its URI and what it names, an embedded resource with its contents", () => {
    expect(
      contentLines(
        { type: "resource_link", uri: "file:///a.md", name: "a.md", title: "A", mimeType: "text/markdown" },
        c,
      ),
    ).toEqual(["→ file:///a.md (A, text/markdown)"]);
    expect(
      contentLines({ type: "resource", resource: { uri: "mem://x", mimeType: "text/plain", text: "inside" } }, c),
    ).toEqual(["[resource mem://x text/plain]", "inside"]);
    expect(resourceLines({ uri: "mem://b", blob: "AAAA", mimeType: "application/octet-stream" }, c)).toEqual([
      "[blob application/octet-stream, 3 bytes]",
    ]);
  });

  it("prints messages headed by their role, further lines indented", () => {
    const messages = [
      { role: "user", content: { type: "text" as const, text: "first\n" } },
      {
        role: "assistant",
        content: [
          { type: "text" as const, text: "one" },
          { type: "text" as const, text: "two" },
        ],
      },
    ];
    expect(messageLines(messages, c)).toEqual(["user: first\n", "assistant: one", "  two"]);
  });
});

describe("base64 sizes", () => {
  it("are counted without decoding, padding taken off", () => {
    for (const bytes of [0, 1, 2, 3, 4, 100]) {
      const data = Buffer.alloc(bytes, 7).toString("base64");
      expect(base64Bytes(data), `${bytes} bytes`).toBe(bytes);
    }
  });
});
