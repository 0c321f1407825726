import { useState } from "preact/hooks";

/** Splits pretty JSON into coloured tokens (keys, strings, numbers, literals). */
const TOKEN = /("(?:\\.|[^"\\])*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

function highlight(text: string) {
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    const at = match.index ?? 0;
    if (at > last) parts.push(text.slice(last, at));
    const cls = match[1] ? (match[2] ? "j-key" : "j-str") : match[3] ? "j-lit" : "j-num";
    parts.push(
      <span class={cls} key={at}>
        {match[1] ?? match[0]}
      </span>,
    );
    if (match[2]) parts.push(match[2]);
    last = at + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // No clipboard permission (an unfocused page): select-and-copy still works on the <pre>.
  }
}

/** A JSON value, pretty-printed and coloured, with a copy button. */
export function JsonView({ value, label, compact }: { value: unknown; label?: string; compact?: boolean }) {
  const text = typeof value === "string" && compact ? value : (JSON.stringify(value, null, 2) ?? "undefined");
  const [copied, setCopied] = useState(false);
  return (
    <div class="json">
      <button
        type="button"
        class="copy"
        aria-label={`Copy ${label ?? "JSON"}`}
        onClick={async () => {
          await copyText(text);
          setCopied(true);
          setTimeout(() => setCopied(false), 1200);
        }}
      >
        {copied ? "Copied" : "Copy"}
      </button>
      <pre>{text.length > 200_000 ? text : highlight(text)}</pre>
    </div>
  );
}
