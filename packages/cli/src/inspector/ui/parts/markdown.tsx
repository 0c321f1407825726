import type { ComponentChildren } from "preact";
import { ExternalLink } from "./external-link.js";

/**
 * A small Markdown renderer for tool results, instructions and skills: headings, lists,
 * code, quotes, emphasis and links (http and https only, never to the inspector: see
 * external-link.tsx), built as elements, never as HTML, so a server's text cannot inject markup.
 */
export function Markdown({ text }: { text: string }) {
  const blocks: ComponentChildren[] = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    const fence = /^```(\w*)/.exec(line);
    if (fence) {
      const code: string[] = [];
      i++;
      while (i < lines.length && !/^```/.test(lines[i] as string)) code.push(lines[i++] as string);
      i++;
      blocks.push(
        <pre class="md-code" key={i}>
          <code>{code.join("\n")}</code>
        </pre>,
      );
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = Math.min((heading[1] as string).length + 2, 6);
      const Tag = `h${level}` as "h3";
      blocks.push(<Tag key={i}>{inline(heading[2] as string)}</Tag>);
      i++;
      continue;
    }
    if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: string[] = [];
      while (i < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[i] as string))
        items.push((lines[i++] as string).replace(/^\s*([-*+]|\d+[.)])\s+/, ""));
      const List = ordered ? "ol" : "ul";
      blocks.push(
        <List key={i}>
          {items.map((item, n) => (
            <li key={n}>{inline(item)}</li>
          ))}
        </List>,
      );
      continue;
    }
    if (/^>\s?/.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && /^>\s?/.test(lines[i] as string))
        quoted.push((lines[i++] as string).replace(/^>\s?/, ""));
      blocks.push(<blockquote key={i}>{inline(quoted.join(" "))}</blockquote>);
      continue;
    }
    if (/^(-{3,}|\*{3,})\s*$/.test(line)) {
      blocks.push(<hr key={i} />);
      i++;
      continue;
    }
    if (!line.trim()) {
      i++;
      continue;
    }
    const paragraph: string[] = [];
    while (
      i < lines.length &&
      (lines[i] as string).trim() &&
      !/^(#{1,6}\s|```|>|\s*([-*+]|\d+[.)])\s)/.test(lines[i] as string)
    )
      paragraph.push(lines[i++] as string);
    blocks.push(<p key={i}>{inline(paragraph.join(" "))}</p>);
  }
  return <div class="markdown">{blocks}</div>;
}

const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*]+)\*|_([^_]+)_|\[([^\]]+)\]\(([^)\s]+)\)/g;

function inline(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    if (m[1] !== undefined) out.push(<code key={at}>{m[1]}</code>);
    else if (m[2] !== undefined || m[3] !== undefined) out.push(<strong key={at}>{m[2] ?? m[3]}</strong>);
    else if (m[4] !== undefined || m[5] !== undefined) out.push(<em key={at}>{m[4] ?? m[5]}</em>);
    // A relative link (a skill's own file), another scheme or the inspector itself: the text, with the target on hover.
    else
      out.push(
        <ExternalLink key={at} href={m[7]}>
          {m[6]}
        </ExternalLink>,
      );
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Whether text looks like Markdown worth rendering. */
export const looksLikeMarkdown = (text: string) =>
  /(^|\n)(#{1,6}\s|[-*]\s|```|\d+\.\s)|\*\*[^*]+\*\*|\[[^\]]+\]\(https?:/.test(text);
