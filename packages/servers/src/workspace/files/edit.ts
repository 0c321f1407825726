import { WorkspaceError } from "../errors.js";

export interface Edit {
  oldText: string;
  newText: string;
}

function occurrences(text: string, part: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(part); i !== -1; i = text.indexOf(part, i + part.length)) at.push(i);
  return at;
}

/**
 * Applies exact-text replacements in order. Each `oldText` must occur exactly once, so an
 * edit never lands somewhere the model did not mean; in a CRLF file, LF-only edit text is
 * matched as CRLF. Throws a WorkspaceError naming the edit that cannot apply.
 */
export function applyEdits(original: string, edits: readonly Edit[]): string {
  const crlf = original.includes("\r\n");
  let text = original;
  edits.forEach((edit, index) => {
    const which = edits.length > 1 ? `Edit ${index + 1}: ` : "";
    if (edit.oldText === "") throw new WorkspaceError(`${which}oldText is empty; give the exact text to replace`);
    let { oldText, newText } = edit;
    let found = occurrences(text, oldText);
    if (found.length === 0 && crlf && !oldText.includes("\r\n")) {
      oldText = oldText.replaceAll("\n", "\r\n");
      newText = newText.replaceAll("\n", "\r\n");
      found = occurrences(text, oldText);
    }
    if (found.length === 0) {
      throw new WorkspaceError(`${which}oldText was not found in the file; it must match exactly, whitespace included`);
    }
    if (found.length > 1) {
      throw new WorkspaceError(
        `${which}oldText occurs ${found.length} times; include more surrounding lines so it matches exactly one place`,
      );
    }
    const at = found[0] as number;
    text = text.slice(0, at) + newText + text.slice(at + oldText.length);
  });
  return text;
}
