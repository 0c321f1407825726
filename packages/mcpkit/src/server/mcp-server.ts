import { SKILL_FILE } from "../protocol/skills.js";
import type { ServerCapabilities } from "../protocol/types/capabilities.js";
import type { Implementation } from "../protocol/types/common.js";
import type { Prompt, Resource, ResourceTemplate, Tool } from "../protocol/types/features.js";
import type { SchemaInput } from "../schema/standard.js";
import type { Transport } from "../transports/transport.js";
import { type Mount, type MountOptions, mountServer } from "./compose/mount.js";
import { ServerDefinition } from "./definition.js";
import { type Handle, register } from "./entry-handle.js";
import type { ListKind, PublishOptions } from "./events.js";
import type { ServerMiddleware } from "./middleware/message-context.js";
import type { FeatureSet, Keyed } from "./registry/feature-set.js";
import { type PromptArgs, type PromptConfig, type PromptHandler, promptEntry } from "./registry/prompt.js";
import {
  type ReadHandler,
  type ResourceConfig,
  type ResourceEntry,
  type ResourceTemplateConfig,
  resourceEntry,
  type TemplateReadHandler,
  templateEntry,
} from "./registry/resource.js";
import { type SkillConfig, skillDefinition } from "./registry/skill.js";
import { type ToolConfig, type ToolHandler, toolEntry } from "./registry/tool.js";
import { serveConnection } from "./serve-connection.js";
import type { ServerOptions } from "./server-options.js";
import type { ServerSession, SessionOptions } from "./server-session.js";

export type { Handle } from "./entry-handle.js";
export type { ListKind } from "./events.js";
export type { ServerOptions } from "./server-options.js";

/** What a server has registered and enabled (McpServer.definitions). */
export interface ServerDefinitions {
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
}

/** Set in McpServer's static block: the library's way to the definition behind a server. */
let definitionOf!: (server: McpServer) => ServerDefinition;

/**
 * The user's server definition: tools, resources, templates and prompts, declared once
 * and served to every revision. It never touches a transport itself; `connect` hands one
 * to the era adapters, and the HTTP endpoints call it per session.
 */
export class McpServer {
  /** This server's name and version (serverInfo), as given to the constructor. */
  readonly info: Implementation;
  readonly options: Readonly<ServerOptions>;
  readonly #definition: ServerDefinition;

  static {
    definitionOf = (server) => server.#definition;
  }

  constructor(options: ServerOptions) {
    this.#definition = new ServerDefinition(options);
    this.info = this.#definition.info;
    this.options = options;
  }

  /**
   * Adds middleware around every request and notification from a client, after those
   * already installed (the first added is the outermost). Applies to messages that
   * arrive from now on, on every session. See docs/middleware.md.
   */
  use(...middleware: ServerMiddleware[]): this {
    this.#definition.use(middleware);
    return this;
  }

  /** A tool without an `output` schema: the handler returns a string or a result. */
  tool<In extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<In, undefined>,
    handler: ToolHandler<NoInfer<In>, undefined>,
  ): Handle;
  /** A tool with an `output` schema: the handler returns structuredContent of its type, or `toolError()`. */
  tool<In extends SchemaInput | undefined = undefined, Out extends SchemaInput = SchemaInput>(
    name: string,
    config: ToolConfig<In, Out> & { output: Out },
    handler: ToolHandler<NoInfer<In>, NoInfer<Out>>,
  ): Handle;
  tool(
    name: string,
    config: ToolConfig<SchemaInput | undefined, SchemaInput | undefined>,
    handler: ToolHandler<unknown, unknown>,
  ): Handle {
    return register(this.#definition.tools, toolEntry(name, config, handler), "Tool");
  }

  resource(uri: string, config: ResourceConfig, read: ReadHandler): Handle {
    return register(this.#definition.resources, resourceEntry(uri, config, read), "Resource");
  }

  resourceTemplate<const T extends string>(
    uriTemplate: T,
    config: ResourceTemplateConfig<T>,
    read: TemplateReadHandler<T>,
  ): Handle {
    const entry = templateEntry(uriTemplate, config as ResourceTemplateConfig, read as TemplateReadHandler);
    return register(this.#definition.templates, entry, "Resource template");
  }

  prompt<const A extends PromptArgs | undefined = undefined>(
    name: string,
    config: PromptConfig<A>,
    handler: PromptHandler<A>,
  ): Handle {
    const entry = promptEntry(name, config, handler as PromptHandler<unknown>);
    return register(this.#definition.prompts, entry, "Prompt");
  }

  /**
   * Publishes a skill (the Skills extension, SEP-2640) at `skill://<path>/`: each file is
   * a resource, the skill an entry of skills/list and skills/get with every file's digest
   * and size, and the server declares `io.modelcontextprotocol/skills` with directory reads.
   */
  skill(path: string, config: SkillConfig): Handle {
    const definition = skillDefinition(path, config);
    const { resources, skills, onError } = this.#definition;
    let skillMd: ResourceEntry | undefined;
    const handles = definition.files.map((file) => {
      const isSkillMd = file.path === SKILL_FILE;
      const resource = resourceEntry(
        file.uri,
        {
          // SEP-2640 §Resource Metadata: SKILL.md is named (and, once read, described) by its
          // frontmatter; the name is the path's last segment, which must equal it.
          name: (isSkillMd ? path : file.path).split("/").at(-1) as string,
          mimeType: file.mimeType,
          size: typeof file.content === "string" ? Buffer.byteLength(file.content) : file.content.byteLength,
          enabled: definition.enabled,
        },
        () => file.content,
      );
      if (isSkillMd) skillMd = resource;
      return register(resources, resource, "Resource");
    });
    handles.push(register(skills, definition, "Skill"));
    definition.ready.then(
      () => {
        if (skillMd) skillMd.definition.description = definition.entry.frontmatter.description;
      },
      (error: unknown) => {
        // A SKILL.md that does not name and describe the skill is not served.
        for (const h of handles) h.remove();
        onError(error);
      },
    );
    return {
      get enabled() {
        return definition.enabled;
      },
      enable: () => {
        for (const h of handles) h.enable();
      },
      disable: () => {
        for (const h of handles) h.disable();
      },
      remove: () => {
        for (const h of handles) h.remove();
      },
    };
  }

  /**
   * Serves another server's tools, prompts, resources and templates from this one, under
   * `prefix`: tools and prompts as `prefix_name`, URIs as `scheme://prefix/rest` (or
   * `prefix+uri` for URIs without an authority); the empty prefix keeps its names and URIs
   * as they are. Its changes and resource updates reach this server's clients; `unmount()`
   * takes it out again. `options` choose another separator, which tools and prompts are
   * served and under what names, and who sees them (docs/composition.md).
   */
  mount(prefix: string, server: McpServer, options?: MountOptions): Mount {
    return mountServer(this.#definition, prefix, server.#definition, options);
  }

  /**
   * Tells every session and subscription stream watching `uri` that it changed
   * (notifications/resources/updated). `options.key` names the change, for one that every
   * node of a cluster notices (a file they share): it then reaches each subscriber once.
   */
  resourceUpdated(uri: string, options?: PublishOptions): void {
    this.#definition.resourceUpdated(uri, options);
  }

  /**
   * Tells clients that a list changed for reasons the server cannot see (a resource list
   * backed by files, say). Changes of one tick are sent as one list_changed per kind;
   * registering, enabling and removing definitions calls this already. A change named by
   * `options.key` (one every node of a cluster notices) is sent at once, and once.
   */
  listChanged(kind: ListKind, options?: PublishOptions): void {
    this.#definition.listChanged(kind, options);
  }

  /**
   * What this server declares, derived from what is registered. One object, shared by every
   * session until a definition changes: treat it as read-only.
   */
  capabilities(): ServerCapabilities {
    return this.#definition.capabilities();
  }

  /**
   * What is registered and enabled, in key order: the definitions a client is listed, before
   * visibility rules, scopes and a session's disables hide some and a revision drops the
   * fields it lacks. Copies: changing them changes nothing.
   */
  definitions(): ServerDefinitions {
    const { tools, prompts, resources, templates } = this.#definition;
    const copies = <T extends object>(set: FeatureSet<{ definition: T } & Keyed>) =>
      set.enabled().map((entry) => ({ ...entry.definition }));
    return {
      tools: copies(tools),
      prompts: copies(prompts),
      resources: copies(resources),
      resourceTemplates: copies(templates),
    };
  }

  /**
   * Reports an unexpected failure as a handler's is reported: to ServerOptions.onError
   * (default: printed to stderr). For work a server starts outside any request (a file
   * watcher, a feed) whose failure nobody else would hear of.
   */
  onError(error: unknown): void {
    this.#definition.onError(error);
  }

  /** Serves one connection (stdio, in-memory, one HTTP session) until it closes. */
  async connect(transport: Transport, options?: SessionOptions): Promise<ServerSession> {
    return serveConnection(this.#definition, transport, options);
  }

  /** The sessions currently connected. */
  get sessions(): ReadonlySet<ServerSession> {
    return this.#definition.sessions;
  }

  /**
   * Fails the tasks this node is running (their requesters see why), ends subscription
   * streams gracefully, then closes every session.
   */
  close(): Promise<void> {
    return this.#definition.close();
  }
}

export { definitionOf };

export function createServer(options: ServerOptions): McpServer {
  return new McpServer(options);
}
