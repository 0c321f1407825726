export * from "../content.js";
export {
  ClientRequestError,
  type Context,
  type ElicitFormRequest,
  type ElicitOutcome,
  type ElicitUrlRequest,
} from "./context.js";
export type { Completer, CompletionContext } from "./definition/completion.js";
export { MAX_COMPLETION_VALUES } from "./definition/completion.js";
export type {
  PromptArgs,
  PromptArgumentSpec,
  PromptArgValues,
  PromptConfig,
  PromptHandler,
  PromptReturn,
} from "./definition/prompt.js";
export type {
  ReadHandler,
  ReadReturn,
  ResourceConfig,
  ResourceTemplateConfig,
  TemplateReadHandler,
} from "./definition/resource.js";
export type { ToolArgs, ToolConfig, ToolHandler, ToolReturn } from "./definition/tool.js";
export { createServer, type Handle, type ListKind, McpServer, type ServerOptions } from "./server.js";
export type { ServerSession, SessionOptions } from "./stateful.js";
