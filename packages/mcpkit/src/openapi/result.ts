import type { CallToolResult } from "../protocol/types/features.js";
import type { Validator } from "../schema/validator.js";
import type { ApiResponse } from "./fetch.js";
import type { OutputPlan } from "./output.js";

const TEXTUAL = /^(text\/|application\/(.+\+)?(json|xml)|application\/(javascript|x-www-form-urlencoded|yaml|x-yaml))/i;

/**
 * The API's answer as a tool result: a 2xx JSON body as structuredContent (and as text for
 * clients that read only content), other text as text, images as images, other bytes as
 * an embedded blob; anything else than 2xx as an error result with the status and the
 * API's own error body (server/tools §Error Handling), so the model can act on it.
 */
export async function toToolResult(
  response: ApiResponse,
  output: OutputPlan | undefined,
  validate: Validator | undefined,
): Promise<CallToolResult> {
  const type = response.headers.get("content-type") ?? "";
  const bytes = Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength);
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  if (response.status < 200 || response.status > 299) {
    const body = TEXTUAL.test(type) || type === "" ? bytes.toString("utf8") : `(${bytes.length} bytes of ${type})`;
    return { content: [{ type: "text", text: body ? `${status}\n${body}` : status }], isError: true };
  }
  if (/json/i.test(type) || (output && type === "")) {
    const text = bytes.toString("utf8");
    let value: unknown;
    try {
      value = text === "" ? undefined : JSON.parse(text);
    } catch {
      return output ? mismatch(status, "its body is not JSON", text) : { content: [{ type: "text", text }] };
    }
    if (!output) {
      const structured = isObject(value) ? { structuredContent: value } : {};
      return { content: [{ type: "text", text }], ...structured };
    }
    const structuredContent = output.wrapped ? { result: value } : value;
    if (validate) {
      const checked = await validate(structuredContent);
      // The document promised a shape the API did not keep: say so, and lose nothing.
      if (!checked.ok) return mismatch(status, checked.message, text);
    }
    if (!isObject(structuredContent)) return mismatch(status, "its body is not a JSON object", text);
    return { content: [{ type: "text", text }], structuredContent };
  }
  if (output) return mismatch(status, `it is ${type || "empty"}, not JSON`, bytes.toString("utf8"));
  if (bytes.length === 0) return { content: [{ type: "text", text: status }] };
  if (TEXTUAL.test(type) || type === "") return { content: [{ type: "text", text: bytes.toString("utf8") }] };
  const mimeType = type.split(";")[0]?.trim() || "application/octet-stream";
  const data = bytes.toString("base64");
  if (mimeType.startsWith("image/")) return { content: [{ type: "image", data, mimeType }] };
  return { content: [{ type: "resource", resource: { uri: response.url, mimeType, blob: data } }] };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function mismatch(status: string, why: string, body: string): CallToolResult {
  return {
    content: [
      {
        type: "text",
        text: `${status}, but the answer does not match the response schema in the API's document (${why}). The body as received:\n${body}`,
      },
    ],
    isError: true,
  };
}
