/** The project templates: which folders of templates/ make each, and what each needs. */
export interface Template {
  readonly name: TemplateName;
  /** One line, shown in help and at the question. */
  readonly summary: string;
  /** The new package's description, unless --description gives one. */
  readonly description: string;
  /** Folders of templates/, copied in order (a later one's file replaces an earlier one's). */
  readonly layers: readonly string[];
  readonly dependencies: readonly Dependency[];
  readonly devDependencies: readonly Dependency[];
  /** The file `npm start` runs and the package's bin, when it has one. */
  readonly main?: string;
}

export const TEMPLATE_NAMES = ["stdio", "http", "hono", "express", "fastify", "workers"] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

export type Dependency =
  | "mcpkit"
  | "@mcpkit/cli"
  | "zod"
  | "typescript"
  | "@types/node"
  | "hono"
  | "@hono/node-server"
  | "express"
  | "@types/express"
  | "fastify";

const COMMON = ["base", "server"];
const TOOLS: Dependency[] = ["@mcpkit/cli", "typescript", "@types/node"];

export const TEMPLATES: Record<TemplateName, Template> = {
  stdio: {
    name: "stdio",
    description: "An MCP server over stdio",
    summary: "a server an MCP client starts and talks to over stdin/stdout (Claude Desktop, IDEs)",
    layers: [...COMMON, "stdio"],
    dependencies: ["mcpkit", "zod"],
    devDependencies: TOOLS,
    main: "dist/main.js",
  },
  http: {
    name: "http",
    description: "An MCP server over Streamable HTTP",
    summary: "a Streamable HTTP server on Node's own http module, nothing else",
    layers: [...COMMON, "http-common", "http"],
    dependencies: ["mcpkit", "zod"],
    devDependencies: TOOLS,
    main: "dist/main.js",
  },
  hono: {
    name: "hono",
    description: "An MCP server in a Hono app",
    summary: "an MCP endpoint in a Hono app (Node here; Bun, Deno and Workers serve app.fetch too)",
    layers: [...COMMON, "http-common", "hono"],
    dependencies: ["mcpkit", "zod", "hono", "@hono/node-server"],
    devDependencies: TOOLS,
    main: "dist/main.js",
  },
  express: {
    name: "express",
    description: "An MCP server in an Express app",
    summary: "an MCP endpoint in an Express app",
    layers: [...COMMON, "http-common", "express"],
    dependencies: ["mcpkit", "zod", "express"],
    devDependencies: [...TOOLS, "@types/express"],
    main: "dist/main.js",
  },
  fastify: {
    name: "fastify",
    description: "An MCP server in a Fastify app",
    summary: "an MCP endpoint in a Fastify app",
    layers: [...COMMON, "http-common", "fastify"],
    dependencies: ["mcpkit", "zod", "fastify"],
    devDependencies: TOOLS,
    main: "dist/main.js",
  },
  workers: {
    name: "workers",
    description: "A stateless MCP server on Cloudflare Workers",
    summary: "a stateless 2026-07-28 server for Cloudflare Workers (deployed with wrangler)",
    layers: [...COMMON, "workers"],
    dependencies: ["mcpkit", "zod"],
    devDependencies: TOOLS,
  },
};

export const isTemplateName = (value: string): value is TemplateName =>
  (TEMPLATE_NAMES as readonly string[]).includes(value);
