import type { Middleware, MiddlewareContext } from "../connection/middleware-chain.js";
import { answerAs } from "../jsonrpc/message.js";
import type {
  CallToolResult,
  CompleteParams,
  CompleteResult,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListToolsResult,
  ReadResourceResult,
} from "../protocol/types/features.js";

type Meta = { _meta?: Record<string, unknown> };

/** The params and result of the methods `forMethod` knows by name. */
export interface MethodShapes {
  "tools/call": { params: { name: string; arguments?: Record<string, unknown> } & Meta; result: CallToolResult };
  "tools/list": { params: { cursor?: string } & Meta; result: ListToolsResult };
  "resources/list": { params: { cursor?: string } & Meta; result: ListResourcesResult };
  "resources/read": { params: { uri: string } & Meta; result: ReadResourceResult };
  "prompts/list": { params: { cursor?: string } & Meta; result: ListPromptsResult };
  "prompts/get": { params: { name: string; arguments?: Record<string, string> } & Meta; result: GetPromptResult };
  "completion/complete": { params: CompleteParams & Meta; result: CompleteResult };
  "sampling/createMessage": { params: CreateMessageParams & Meta; result: CreateMessageResult };
  "elicitation/create": { params: ElicitParams & Meta; result: ElicitResult };
}

/** What a middleware for one method sees: the message, its params typed by the method. */
export type MethodContext<M extends keyof MethodShapes, C extends MiddlewareContext = MiddlewareContext> = Omit<
  C,
  "params"
> & { params: MethodShapes[M]["params"] };

/** A middleware for one method: its params and its result typed. */
export type MethodMiddleware<M extends keyof MethodShapes, C extends MiddlewareContext = MiddlewareContext> = (
  ctx: MethodContext<M, C>,
  next: () => Promise<MethodShapes[M]["result"]>,
) => MethodShapes[M]["result"] | Promise<MethodShapes[M]["result"]>;

/**
 * Runs `middleware` for requests of `method` only, with their params and result typed;
 * every other message goes straight on. The params are as the peer sent them: check what
 * a handler would check before relying on them.
 */
export function forMethod<M extends keyof MethodShapes, C extends MiddlewareContext = MiddlewareContext>(
  method: M,
  middleware: MethodMiddleware<M, C>,
): Middleware<C> {
  return (ctx, next) => {
    if (ctx.method !== method || ctx.kind !== "request") return next();
    // The message seen through its method's types: its params as the peer sent them.
    const typed = ctx as unknown as MethodContext<M, C>;
    return middleware(typed, () => answerAs<MethodShapes[M]["result"]>(next()));
  };
}
