import { ErrorCode, McpError, methodNotFound } from "../jsonrpc/errors.js";
import type { JsonObject, RequestId } from "../jsonrpc/types.js";
import type { ClientCapabilities } from "../protocol/types/capabilities.js";
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  Root,
} from "../protocol/types/features.js";
import { applyElicitationDefaults } from "./elicitation-defaults.js";

/** What a handler for a server-to-client request sees. */
export interface ClientRequestContext {
  readonly signal: AbortSignal;
  /**
   * The JSON-RPC id of the server's request; for an input request of a multi round-trip
   * request (2026-07-28), which has no id of its own, its key in `inputRequests`.
   */
  readonly requestId: RequestId;
  /** Set for an input request of a multi round-trip request: its key in `inputRequests`. */
  readonly inputKey?: string;
}

/** The user's answers to what servers ask of clients: the same in both eras. */
export interface ClientHandlers {
  /** Answers sampling/createMessage; declares the sampling capability. */
  sampling?: (
    params: CreateMessageParams,
    ctx: ClientRequestContext,
  ) => CreateMessageResult | Promise<CreateMessageResult>;
  /**
   * Answers elicitation/create; declares the elicitation capability (form mode; add
   * `capabilities.elicitation.url` for URL mode). Defaults in the schema fill omitted fields.
   */
  elicitation?: (params: ElicitParams, ctx: ClientRequestContext) => ElicitResult | Promise<ElicitResult>;
  /**
   * Answers roots/list when the roots are not a fixed list (a proxy asks its own client);
   * declares roots. Without it, `roots` (ClientOptions) answers.
   */
  listRoots?: (ctx: ClientRequestContext) => Root[] | Promise<Root[]>;
}

export interface Answerer {
  readonly handlers: ClientHandlers;
  /** What the client declared; an undeclared request is refused. */
  readonly capabilities: ClientCapabilities;
  readonly roots: Root[];
}

/**
 * Answers one request a server makes of the client: sampling, elicitation or roots,
 * whether it came as a JSON-RPC request (up to 2025-11-25) or as an input request of a
 * multi round-trip request (2026-07-28). Anything the client did not declare is refused
 * with -32601 (basic/lifecycle §Capability Negotiation).
 */
export async function answerServerRequest(
  method: string,
  params: object,
  ctx: ClientRequestContext,
  answerer: Answerer,
): Promise<JsonObject> {
  // The handlers' typed results go back as JSON: the one step from typed to JSON, here.
  return (await answerTyped(method, params, ctx, answerer)) as JsonObject;
}

async function answerTyped(
  method: string,
  // As the server sent them: typed below by the method's specification, unchecked.
  params: object,
  ctx: ClientRequestContext,
  answerer: Answerer,
): Promise<object> {
  const { handlers, capabilities } = answerer;
  switch (method) {
    case "ping":
      return {};
    case "sampling/createMessage":
      if (handlers.sampling && capabilities.sampling) return handlers.sampling(params as CreateMessageParams, ctx);
      break;
    case "elicitation/create":
      if (handlers.elicitation && capabilities.elicitation)
        return elicit(handlers.elicitation, params as ElicitParams, ctx, capabilities);
      break;
    case "roots/list":
      if (handlers.listRoots && capabilities.roots) return { roots: await handlers.listRoots(ctx) };
      if (capabilities.roots) return { roots: answerer.roots };
      break;
  }
  throw methodNotFound(method);
}

async function elicit(
  handler: NonNullable<ClientHandlers["elicitation"]>,
  params: ElicitParams,
  ctx: ClientRequestContext,
  capabilities: ClientCapabilities,
): Promise<ElicitResult> {
  const mode = params.mode ?? "form";
  if (mode === "url" && !capabilities.elicitation?.url)
    throw new McpError(ErrorCode.InvalidParams, "This client did not declare URL-mode elicitation");
  const result = await handler(params, ctx);
  if (result.action === "accept" && params.mode !== "url") {
    return { ...result, content: applyElicitationDefaults(params, result.content) };
  }
  return result;
}
