import type { ResourceContents } from "mcpkit";
import { EXIT, UsageError } from "../exit-codes.js";
import { resourceLines } from "../format/content.js";
import type { Output } from "../output.js";
import type { Action } from "./session.js";

/**
 * `read URI`. One text resource is printed as it is; one binary resource is written raw
 * when stdout is a file or a pipe (`mcpkit call … read URI > image.png`) and described on
 * a terminal. Several contents each get a header line.
 */
export const readResource: Action = (args) => {
  const [uri, ...rest] = args;
  if (!uri || rest.length > 0) throw new UsageError("read takes one URI: read URI");
  return async ({ client, out, signal, onprogress, endProgress }) => {
    const result = await client.readResource(uri, { signal, onprogress });
    endProgress();
    if (out.json) out.data(result);
    else if (result.contents.length === 1) printOne(result.contents[0] as ResourceContents, out);
    else
      for (const contents of result.contents) {
        out.line(out.c.dim(`--- ${contents.uri}${contents.mimeType ? ` (${contents.mimeType})` : ""}`));
        for (const line of resourceLines(contents, out.c, out.save)) out.line(line);
      }
    return EXIT.ok;
  };
};

function printOne(contents: ResourceContents, out: Output): void {
  const terminal = process.stdout.isTTY === true;
  if ("blob" in contents && typeof contents.blob === "string") {
    // --save DIR writes it there; else a file or pipe gets the bytes, and a terminal a description.
    if (terminal || out.save) {
      for (const line of resourceLines(contents, out.c, out.save)) out.line(line);
      if (!out.save) out.note(out.ce.dim("(binary: redirect stdout to a file, or use --save DIR, to save it)"));
    } else out.bytes(Buffer.from(contents.blob, "base64"));
    return;
  }
  const text = (contents as { text?: string }).text ?? "";
  // A terminal gets a final newline; a file or pipe gets the text exactly.
  if (terminal && !text.endsWith("\n")) out.line(text);
  else out.bytes(Buffer.from(text));
}
