import type { StandardSchemaV1 } from "@standard-schema/spec";
import { asJson } from "../jsonrpc/message.js";
import type { JsonObject } from "../jsonrpc/types.js";
import type { SkillEntry } from "../protocol/skills.js";
import type { WireTask } from "../protocol/tasks.js";
import type { LogLevel } from "../protocol/types/common.js";
import type {
  CallToolResult,
  CompleteParams,
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from "../protocol/types/features.js";
import { ClientBase } from "./client-base.js";
import type { CallOptions } from "./eras/client-era.js";
import {
  getSkill,
  type LoadedSkill,
  type LoadSkillOptions,
  listSkills,
  loadSkill,
  type SkillsPeer,
  skillsPeerOf,
} from "./skills.js";
import { createdTask, mayRunAsTask, ToolTask, taskHostOf } from "./tasks.js";
import { checkStructured, type ToolResultOf } from "./typed-result.js";

export type { ClientRequestContext } from "./answer.js";
export type { ClientMiddleware, ClientMiddlewareContext } from "./client-middleware.js";
export type { ClientOptions } from "./client-options.js";
export type { CallOptions } from "./eras/client-era.js";
export type { ServerDescription } from "./server-description.js";

/**
 * An MCP client over any transport. It speaks 2026-07-28 to servers that do (per-request
 * `_meta`, multi round-trip requests, subscriptions/listen, caching hints) and the
 * `initialize` handshake to older ones, behind one set of typed calls: each era is a
 * ClientEra (client/eras/); ClientBase (client-base.ts) holds what both share (the
 * connection, list caches, listeners, middleware, answers to what servers ask of clients).
 */
export class Client extends ClientBase {
  /** One page of tools. On Streamable HTTP, tools with invalid x-mcp-header annotations are left out. */
  async listTools(cursor?: string, options?: CallOptions): Promise<ListToolsResult> {
    const era = this.require("tools");
    const page = await this.request<ListToolsResult>(
      "tools/list",
      cursor === undefined ? undefined : { cursor },
      options,
    );
    const tools = era.acceptTools(page.tools ?? [], false);
    this.outputs?.note(tools);
    return { ...page, tools };
  }

  /** Every tool, following cursors; cached until the server says the list changed or its ttlMs ran out. */
  async tools(): Promise<Tool[]> {
    this.require("tools");
    return this.lists.tools.get();
  }

  /**
   * Calls a tool (on Streamable HTTP with a 2026-07-28 server, with its `Mcp-Param-*`
   * headers). If the server runs it as a task (a client that declares the Tasks extension),
   * this waits for the task, answering what it asks, and gives its result. When the client
   * has listed the tool and it declares an outputSchema, a result that breaks it (no
   * structuredContent, or content that does not match) is a ToolOutputError (server/tools
   * §Output Schema); turn that off with `validateToolOutput: false`. With `output` (a
   * Standard Schema for the tool's structuredContent, e.g. the one the server was written
   * with), the result's structuredContent is checked against it and typed by it. `onTask`
   * is called when the server made the call a task (and awaited before the wait starts),
   * then with each state the task reaches.
   */
  async callTool<S extends StandardSchemaV1 | undefined = undefined>(
    name: string,
    args: Record<string, unknown> = {},
    options?: CallOptions & { output?: S; onTask?: (task: WireTask) => void | Promise<void> },
  ): Promise<ToolResultOf<S>> {
    const { output, onTask, ...rest } = options ?? {};
    const era = this.require("tools");
    // Where the answer may be a task: one made for a call given up on meanwhile is cancelled once its id comes.
    const mayBeTask = options?.asTask !== undefined || era.kind === "modern";
    const callOptions = mayBeTask ? { ...rest, onLateResult: this.cancelLateTask } : options && rest;
    let result: CallToolResult;
    if (this.chain === undefined) result = await era.callTool(name, args, callOptions);
    else {
      result = await this.chain.outbound<CallToolResult>(
        "tools/call",
        { name, arguments: args },
        callOptions,
        (ctx) => {
          const p = ctx.params ?? {};
          return era.callTool(p.name as string, (p.arguments ?? {}) as Record<string, unknown>, ctx.options);
        },
      );
    }
    const created = mayBeTask ? createdTask(asJson(result)) : undefined;
    if (created) {
      await onTask?.(created);
      result = await this.task(created.taskId, created).result({
        ...(options?.signal && { signal: options.signal }),
        ...(onTask && {
          onUpdate: (task: WireTask) =>
            void (async () => onTask(task))().catch((error: unknown) => this.options.onError?.(error)),
        }),
      });
    }
    const checked = this.outputs ? await this.outputs.check(name, result) : result;
    return (output ? await checkStructured(name, checked, output) : checked) as ToolResultOf<S>;
  }

  /**
   * Calls a tool and lets the server run it as a task (tasks, docs/tasks.md): resolves
   * with the task's handle once the server created it, or with the result when the server
   * answered at once (or cannot run this tool as a task). `ttlMs` asks a 2025-11-25
   * server to keep the task that long.
   */
  async callToolAsTask(
    name: string,
    args: Record<string, unknown> = {},
    options?: CallOptions & { ttlMs?: number },
  ): Promise<{ task: ToolTask; result?: undefined } | { result: CallToolResult; task?: undefined }> {
    const era = this.require("tools");
    const { ttlMs, ...rest } = options ?? {};
    const asTask = (await mayRunAsTask(era, () => this.tools(), name))
      ? { ...(ttlMs !== undefined && { ttlMs }) }
      : undefined;
    const result = await era.callTool(
      name,
      args,
      asTask ? { ...rest, asTask, onLateResult: this.cancelLateTask } : rest,
    );
    const created = asTask ? createdTask(asJson(result)) : undefined;
    return created ? { task: this.task(created.taskId, created) } : { result };
  }

  /**
   * A tools/call answered with a task after the call was cancelled (timed out or aborted:
   * the answer crossed the cancellation): nobody will follow that task, so it is cancelled
   * (tasks/cancel) rather than left running on the server.
   */
  private readonly cancelLateTask = (result: JsonObject) => {
    const created = createdTask(result);
    if (created)
      this.task(created.taskId)
        .cancel()
        .catch((error: unknown) => this.options.onError?.(error));
  };

  /** A task by id, to poll, answer, cancel or wait for: one created earlier, by this client or another. */
  task(taskId: string, seen?: WireTask): ToolTask {
    this.connected();
    return new ToolTask(
      taskHostOf(this, this.connected().kind, () => this.answerer),
      taskId,
      seen,
    );
  }

  listResources(cursor?: string, options?: CallOptions): Promise<ListResourcesResult> {
    this.require("resources");
    return this.request("resources/list", cursor === undefined ? undefined : { cursor }, options);
  }

  async resources(): Promise<Resource[]> {
    this.require("resources");
    return this.lists.resources.get();
  }

  listResourceTemplates(cursor?: string, options?: CallOptions): Promise<ListResourceTemplatesResult> {
    this.require("resources");
    return this.request("resources/templates/list", cursor === undefined ? undefined : { cursor }, options);
  }

  async resourceTemplates(): Promise<ResourceTemplate[]> {
    this.require("resources");
    return this.lists.resourceTemplates.get();
  }

  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    this.require("resources");
    return this.request("resources/read", { uri }, options);
  }

  /** Every skill the server lists (the Skills extension's skills/list); fetches no file. */
  async skills(): Promise<SkillEntry[]> {
    return listSkills(this.skillsPeer());
  }

  /** One skill's current entry (skills/get), whether or not the server lists it. */
  async getSkill(uri: string): Promise<SkillEntry> {
    return getSkill(this.skillsPeer(), uri);
  }

  /**
   * Loads a skill: its SKILL.md is fetched now and verified against the entry (size,
   * digest, frontmatter); other files are fetched and verified when read. A mismatch is a
   * SkillVerificationError and the content is not returned.
   */
  async loadSkill(skill: SkillEntry | string, options?: LoadSkillOptions): Promise<LoadedSkill> {
    return loadSkill(this.skillsPeer(), skill, options);
  }

  private skillsPeer(): SkillsPeer {
    return skillsPeerOf(this.connected().serverCapabilities, this);
  }

  /**
   * resources/subscribe. A 2026-07-28 server has no such method: the client keeps one
   * subscriptions/listen stream for every subscribed URI instead, and
   * notifications/resources/updated reaches `on()` listeners just the same.
   */
  async subscribe(uri: string, options?: CallOptions): Promise<void> {
    await this.require("resources", "subscribe").subscribe(uri, options);
  }

  async unsubscribe(uri: string, options?: CallOptions): Promise<void> {
    await this.require("resources", "subscribe").unsubscribe(uri, options);
  }

  listPrompts(cursor?: string, options?: CallOptions): Promise<ListPromptsResult> {
    this.require("prompts");
    return this.request("prompts/list", cursor === undefined ? undefined : { cursor }, options);
  }

  async prompts(): Promise<Prompt[]> {
    this.require("prompts");
    return this.lists.prompts.get();
  }

  getPrompt(name: string, args: Record<string, string> = {}, options?: CallOptions): Promise<GetPromptResult> {
    this.require("prompts");
    return this.request("prompts/get", { name, arguments: args }, options);
  }

  complete(params: CompleteParams, options?: CallOptions): Promise<CompleteResult> {
    // 2024-11-05 had completion without a capability flag, and `context` arrived in 2025-06-18.
    if (this.protocolVersion !== "2024-11-05") this.require("completions");
    const { context, ...rest } = params;
    const sent = context && this.era?.rules?.completionContext ? params : rest;
    return this.request("completion/complete", sent, options);
  }

  /**
   * logging/setLevel. 2026-07-28 removed that method: the level is kept here and sent in
   * the `_meta` of every later request (server/utilities/logging).
   */
  async setLogLevel(level: LogLevel, options?: CallOptions): Promise<void> {
    await this.require("logging").setLogLevel(level, options);
  }
}
