import type { Annotations, Icon, Meta, PaginatedResult, Role } from "./common.js";
import type { ContentBlock, ResourceContents, SamplingContent } from "./content.js";

/** server/tools, server/resources, server/prompts: what lists and reads return. */

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type JsonSchema = Record<string, unknown>;

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  /** 2025-11-25: whether the tool may run as a task (basic/utilities/tasks §Tool-Level Negotiation). */
  execution?: { taskSupport?: "forbidden" | "optional" | "required" };
  _meta?: Meta;
}

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Meta;
}

export interface ListToolsResult extends PaginatedResult {
  tools: Tool[];
}

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
}

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
}

export interface ListResourcesResult extends PaginatedResult {
  resources: Resource[];
}

export interface ListResourceTemplatesResult extends PaginatedResult {
  resourceTemplates: ResourceTemplate[];
}

export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: Meta;
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
}

export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: Meta;
}

export interface ListPromptsResult extends PaginatedResult {
  prompts: Prompt[];
}

export type CompleteRef = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

export interface CompleteParams {
  ref: CompleteRef;
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}

export interface CompleteResult {
  completion: { values: string[]; total?: number; hasMore?: boolean };
  _meta?: Meta;
}

/** client/roots */
export interface Root {
  uri: string;
  name?: string;
  _meta?: Meta;
}

export interface ListRootsResult {
  roots: Root[];
  _meta?: Meta;
}

/** client/sampling */
export interface SamplingMessage {
  role: Role;
  content: SamplingContent | SamplingContent[];
  _meta?: Meta;
}

export interface ModelPreferences {
  hints?: { name?: string }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

export interface SamplingTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
}

export interface CreateMessageParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  modelPreferences?: ModelPreferences;
  includeContext?: "none" | "thisServer" | "allServers";
  temperature?: number;
  stopSequences?: string[];
  metadata?: Record<string, unknown>;
  tools?: SamplingTool[];
  toolChoice?: { mode?: "auto" | "required" | "none" };
  _meta?: Meta;
}

export interface CreateMessageResult {
  role: Role;
  content: SamplingContent | SamplingContent[];
  model: string;
  stopReason?: string;
  _meta?: Meta;
}

/** client/elicitation */
export type ElicitFieldSchema = Record<string, unknown>;

export interface ElicitFormParams {
  mode?: "form";
  message: string;
  requestedSchema: {
    $schema?: string;
    type: "object";
    properties: Record<string, ElicitFieldSchema>;
    required?: string[];
  };
  _meta?: Meta;
}

export interface ElicitUrlParams {
  mode: "url";
  message: string;
  url: string;
  elicitationId: string;
  _meta?: Meta;
}

export type ElicitParams = ElicitFormParams | ElicitUrlParams;

export type ElicitValue = string | number | boolean | string[];

export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, ElicitValue>;
  _meta?: Meta;
}
