import type { ContentBlock as Block, Annotations as BlockAnnotations, CallToolResult, ResourceContents } from "mcpkit";
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { navigate } from "../store.js";
import { JsonView } from "./json.js";
import { looksLikeMarkdown, Markdown } from "./markdown.js";

const dataUri = (mimeType: string | undefined, base64: string) =>
  `data:${mimeType ?? "application/octet-stream"};base64,${base64}`;

/** Base64 to text, when it is valid UTF-8 (else undefined: the blob is offered as a download). */
function decodeText(base64: string): string | undefined {
  try {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Audience, priority, last modified: shown as small chips. */
export function Annotations({ annotations }: { annotations?: BlockAnnotations | undefined }) {
  if (!annotations || Object.keys(annotations).length === 0) return null;
  return (
    <div class="chips">
      {Object.entries(annotations).map(([key, value]) => (
        <span class="chip" key={key} title={key}>
          {key}: {Array.isArray(value) ? value.join(", ") : String(value)}
        </span>
      ))}
    </div>
  );
}

function TextBlock({ text }: { text: string }) {
  const [markdown, setMarkdown] = useState(looksLikeMarkdown(text));
  return (
    <div class="text-block">
      <div class="block-tools">
        <button type="button" class="link" aria-pressed={markdown} onClick={() => setMarkdown(!markdown)}>
          {markdown ? "Plain text" : "Markdown"}
        </button>
      </div>
      {markdown ? <Markdown text={text} /> : <pre class="text">{text}</pre>}
    </div>
  );
}

/** One resource's contents: text (JSON pretty-printed, Markdown rendered), or a blob by its MIME type. */
export function ResourceBody({ content }: { content: ResourceContents }) {
  const mime = String(content.mimeType ?? "");
  if ("text" in content && typeof content.text === "string") {
    if (/json/.test(mime)) {
      try {
        return <JsonView value={JSON.parse(content.text)} label="resource" />;
      } catch {
        // Not JSON after all: shown as text.
      }
    }
    return <TextBlock text={content.text} />;
  }
  if ("blob" in content && typeof content.blob === "string") {
    const text = /^text\/|json|xml|javascript|yaml/.test(mime) ? decodeText(content.blob) : undefined;
    if (text !== undefined)
      return (
        <>
          <TextBlock text={text} />
          <p class="hint">
            Sent as a blob, decoded as UTF-8.{" "}
            <a href={dataUri(mime, content.blob)} download={String(content.uri).split("/").pop() || "resource"}>
              Download
            </a>
          </p>
        </>
      );
    if (mime.startsWith("image/"))
      return <img class="media" src={dataUri(mime, content.blob)} alt={String(content.uri)} />;
    if (mime.startsWith("audio/"))
      return (
        <audio class="media" controls src={dataUri(mime, content.blob)}>
          <track kind="captions" />
        </audio>
      );
    return (
      <p>
        {Math.round((content.blob.length * 3) / 4)} bytes of {mime || "binary data"}.{" "}
        <a href={dataUri(mime, content.blob)} download={String(content.uri).split("/").pop() || "resource"}>
          Download
        </a>
      </p>
    );
  }
  return <JsonView value={content} />;
}

/** A content block of a tool result or a prompt message (server/tools §Tool Result). */
export function ContentBlock({ block }: { block: Block }) {
  let body: ComponentChildren;
  // A server may send a type this page does not know: shown as JSON (the default case).
  switch (block.type) {
    case "text":
      body = <TextBlock text={String(block.text ?? "")} />;
      break;
    case "image":
      body = <img class="media" src={dataUri(block.mimeType, block.data)} alt="content of the result" />;
      break;
    case "audio":
      body = (
        <audio class="media" controls src={dataUri(block.mimeType, block.data)}>
          <track kind="captions" />
        </audio>
      );
      break;
    case "resource_link":
      body = (
        <div class="link-block">
          <span class="mono">{block.uri}</span> {block.name && <span>({block.title ?? block.name})</span>}
          {block.description && <div class="hint">{block.description}</div>}
          <button type="button" onClick={() => navigate("resources", { uri: block.uri })}>
            Open resource
          </button>
        </div>
      );
      break;
    case "resource":
      body = (
        <div class="embedded">
          <div class="hint mono">{block.resource?.uri}</div>
          {block.resource && <ResourceBody content={block.resource} />}
        </div>
      );
      break;
    default:
      body = <JsonView value={block} />;
  }
  return (
    <div class="block" data-type={(block as { type: string }).type}>
      <div class="block-type">{String((block as { type: string }).type).replace("_", " ")}</div>
      {body}
      <Annotations annotations={(block as { annotations?: BlockAnnotations }).annotations} />
    </div>
  );
}

/** JSON-RPC error codes people meet (basic §Error Codes, and MCP's own). */
const ERROR_NAMES: Record<number, string> = {
  [-32700]: "Parse error",
  [-32600]: "Invalid request",
  [-32601]: "Method not found",
  [-32602]: "Invalid params",
  [-32603]: "Internal error",
  [-32001]: "Request timeout",
  [-32002]: "Resource not found",
  [-32020]: "Header mismatch",
  [-32021]: "Missing required client capability",
  [-32022]: "Unsupported protocol version",
  [-32042]: "URL elicitation required",
};

/**
 * A request that failed as a whole (a JSON-RPC error), shown apart from a tool's own
 * failure (a result with isError): the code and its name, the message, and the data.
 * Without a code, the call failed on this side (cancelled, not connected, a bad argument).
 */
export function ProtocolError({ error }: { error: { message: string; code?: number; data?: unknown } }) {
  const { code, data } = error;
  // -32000 is the implementation's own range: mcpkit says which failure it is in data.reason.
  const reason = (data as { reason?: unknown } | undefined)?.reason;
  const name =
    code === undefined ? undefined : (ERROR_NAMES[code] ?? (typeof reason === "string" ? reason : undefined));
  return (
    <div class="result protocol-error" role="alert">
      <div class="result-head">
        <span class="pill bad">
          {code === undefined ? "Failed" : `JSON-RPC error ${code}${name ? ` · ${name}` : ""}`}
        </span>
      </div>
      <p class="error">{error.message}</p>
      {data !== undefined && <JsonView value={data} label="error data" />}
    </div>
  );
}

/** A tool's result: its content, its structuredContent with the outputSchema check, errors, raw JSON. */
export function ToolResult({
  result,
  outputError,
  hasOutputSchema,
}: {
  result: CallToolResult;
  outputError?: string;
  hasOutputSchema?: boolean;
}) {
  const [raw, setRaw] = useState(false);
  const content = Array.isArray(result.content) ? result.content : [];
  return (
    <div class={`result ${result.isError ? "is-error" : ""}`}>
      <div class="result-head">
        <span class={`pill ${result.isError ? "bad" : "good"}`}>{result.isError ? "Tool error" : "Result"}</span>
        {/* server/tools §Output Schema binds results, not tool errors: those are not checked. */}
        {hasOutputSchema && !result.isError && (
          <span class={`pill ${outputError ? "bad" : "good"}`} title={outputError}>
            {outputError ? "breaks its outputSchema" : "matches its outputSchema"}
          </span>
        )}
        <button type="button" class="link" aria-pressed={raw} onClick={() => setRaw(!raw)}>
          {raw ? "Rendered" : "JSON"}
        </button>
      </div>
      {outputError && <p class="error">{outputError}</p>}
      {raw ? (
        <JsonView value={result} label="result" />
      ) : (
        <>
          {content.map((block, i) => (
            <ContentBlock block={block} key={i} />
          ))}
          {result.structuredContent !== undefined && (
            <div class="block" data-type="structured">
              <div class="block-type">structuredContent</div>
              <JsonView value={result.structuredContent} label="structured content" />
            </div>
          )}
          {result._meta && (
            <details>
              <summary>_meta</summary>
              <JsonView value={result._meta} />
            </details>
          )}
        </>
      )}
    </div>
  );
}
