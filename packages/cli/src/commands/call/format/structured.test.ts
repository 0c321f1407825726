import { describe, expect, it } from "vitest";
import { structuredText } from "./structured.js";

// A tool's structuredContent is printed only for what its content does not already show.

describe("structured content", () => {
  it("is left out when every value in it is already in the content", () => {
    const content = [{ type: "text" as const, text: "Paris" }];
    expect(structuredText({ city: "Paris" }, content)).toBeUndefined();
    expect(
      structuredText({ image: "AAAA", mimeType: "image/png", type: "image" }, [
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ]),
    ).toBeUndefined();
  });

  it("is printed as JSON when it says more, with the binary it shares with the content summarised", () => {
    const content = [{ type: "image" as const, data: "QUJD", mimeType: "image/png" }];
    expect(JSON.parse(structuredText({ picture: "QUJD", width: 3 }, content) as string)).toEqual({
      picture: "<image image/png, shown above>",
      width: 3,
    });
    const resource = [{ type: "resource" as const, resource: { uri: "mem://b", blob: "Zm9v" } }];
    expect(structuredText({ data: "Zm9v", size: 3 }, resource)).toContain('"<blob of mem://b, shown above>"');
  });

  it("counts numbers and booleans as news: the content's text does not hold them as values", () => {
    expect(structuredText({ temperature: 21 }, [{ type: "text", text: "21" }])).toBe('{\n  "temperature": 21\n}');
  });
});
