import type { Middleware, MiddlewareContext } from "../connection/middleware-chain.js";
import { ErrorCode, McpError } from "../jsonrpc/errors.js";

const encoder = new TextEncoder();
/** UTF-8 bytes of a string: Buffer where there is one (no copy), else an encoding. */
const utf8Bytes =
  typeof Buffer === "function"
    ? (text: string) => Buffer.byteLength(text)
    : (text: string) => encoder.encode(text).byteLength;

export interface ResponseSizeOptions {
  /** The largest result, in bytes of UTF-8 JSON. */
  maxBytes: number;
}

/**
 * Refuses results larger than `maxBytes`, so one handler cannot flood a client (or a
 * model's context). An oversized tools/call result becomes a tool error the model can
 * read (server/tools §Error Handling); any other method fails with -32603 and the sizes.
 * It serializes each result once more to measure it: put it where that cost is acceptable.
 */
export function responseSizeLimit<C extends MiddlewareContext = MiddlewareContext>(
  options: ResponseSizeOptions,
): Middleware<C> {
  const { maxBytes } = options;
  if (!(maxBytes > 0)) throw new RangeError("responseSizeLimit: maxBytes must be a positive number");
  return async (ctx, next) => {
    const result = await next();
    if (ctx.kind === "notification") return result;
    const bytes = utf8Bytes(JSON.stringify(result));
    if (bytes <= maxBytes) return result;
    const what =
      ctx.method === "tools/call" && typeof ctx.params?.name === "string" ? `tool ${ctx.params.name}` : ctx.method;
    const message = `The result of ${what} is ${bytes} bytes, over this server's limit of ${maxBytes} bytes; ask for less (a narrower query, a smaller page).`;
    if (ctx.method === "tools/call") return { content: [{ type: "text", text: message }], isError: true };
    throw new McpError(ErrorCode.InternalError, message, { reason: "response-too-large", bytes, maxBytes });
  };
}
