// The dependency rules (docs/architecture.md, "Dependency rules"), checked by `npm test`
// over every package's src: which package may import which, then the library's layers.
// Type-only imports count: a cycle through types is still a cycle.
const src = "^packages/mcpkit/src/";

/**
 * A rule that lets a package import, of the workspace's packages, only those named in
 * `allowed` (by package name: another package's src is never imported by a relative path).
 * A package import is not resolved here (the packages export their builds), so it is
 * matched by its name.
 */
const packageImports = (name, folder, allowed) => ({
  name,
  comment: `packages/${folder} imports ${allowed.length ? allowed.join(" and ") : "none of the workspace's packages"}.`,
  severity: "error",
  from: { path: `^packages/${folder}/src/` },
  to: {
    path: "^(mcpkit|@mcpkit/[^/]+|create-mcpkit)(/|$)",
    pathNot: allowed.map((pkg) => `^${pkg.replace("/", "\\/")}(/|$)`),
  },
});
const HTTP_SERVER = [
  `${src}endpoints/`,
  `${src}auth/server/`,
  `${src}transports/streamable-http/server/`,
  `${src}transports/sse-legacy/sse-server-transport\\.ts$`,
  `${src}transports/http/(node|router|guards|sse|responses|exchange)\\.ts$`,
];

/** A rule that lets files under `from` import only what `allowed` matches (plus packages). */
const only = (name, comment, from, allowed) => ({
  name,
  comment,
  severity: "error",
  from: { path: `${src}${from}` },
  to: { path: `${src}`, pathNot: allowed.map((a) => `${src}${a}`) },
});

module.exports = {
  forbidden: [
    // Between packages (docs/architecture.md, "Packages"): nothing imports upward.
    packageImports("mcpkit-imports-no-package", "mcpkit", []),
    packageImports("servers-import-mcpkit", "servers", ["mcpkit"]),
    packageImports("redis-imports-mcpkit", "redis", ["mcpkit"]),
    // @mcpkit/redis is the CLI's optional peer, loaded for --redis only.
    packageImports("cli-imports-servers-mcpkit-redis", "cli", ["mcpkit", "@mcpkit/servers", "@mcpkit/redis"]),
    packageImports("create-imports-no-package", "create-mcpkit", []),
    {
      name: "cli-modules-import-no-command",
      comment:
        "In the CLI, commands stand on its modules (built-in/, config/, module/, the inspector…), never the reverse; a command's usage error is everyone's.",
      severity: "error",
      from: {
        path: "^packages/cli/src/",
        pathNot: ["^packages/cli/src/(commands/|program\\.ts$|main\\.ts$)", "\\.test\\.ts$"],
      },
      to: { path: "^packages/cli/src/commands/", pathNot: "^packages/cli/src/commands/usage-error\\.ts$" },
    },
    {
      name: "no-reaching-into-another-package",
      comment: "A package uses another through its name and exports, never its files by a relative path.",
      severity: "error",
      from: { path: "^packages/([^/]+)/" },
      to: { path: "^packages/", pathNot: "^packages/$1/" },
    },
    {
      name: "no-circular",
      comment: "No import cycles, type imports included.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    only("jsonrpc-is-a-leaf", "jsonrpc/ knows no MCP and no I/O.", "jsonrpc/", ["jsonrpc/"]),
    only(
      "address-guard-is-a-leaf",
      "address-guard/ judges the addresses a fetch made on someone else's say-so may reach: node's own modules only.",
      "address-guard/",
      ["address-guard/"],
    ),
    only("protocol-above-jsonrpc", "protocol/ builds on jsonrpc/ only.", "protocol/", ["jsonrpc/", "protocol/"]),
    only("schema-above-protocol", "schema/ validates; it knows no session or server.", "schema/", [
      "protocol/",
      "schema/",
    ]),
    only(
      "transports-know-no-mcp",
      "A transport moves JSON-RPC messages: it imports jsonrpc/, protocol/ and other transports only.",
      "transports/",
      ["jsonrpc/", "protocol/", "transports/"],
    ),
    only(
      "connection-above-transports",
      "connection/ correlates requests: jsonrpc/, protocol/ and the transport contract only (and the pure address key that client-key.ts counts callers by).",
      "connection/",
      ["jsonrpc/", "protocol/", "connection/", "transports/transport\\.ts$", "transports/http/client-address\\.ts$"],
    ),
    only(
      "server-below-endpoints",
      "server/ is the definition and the era adapters: it never imports an HTTP transport, an endpoint or the client.",
      "server/",
      ["jsonrpc/", "protocol/", "schema/", "connection/", "server/", "content\\.ts$", "transports/transport\\.ts$"],
    ),
    only(
      "client-never-imports-server",
      "client/ talks to servers over transports; it never imports server code.",
      "client/",
      ["jsonrpc/", "protocol/", "schema/", "connection/", "client/", "transports/transport\\.ts$"],
    ),
    only(
      "middleware-is-generic",
      "middleware/ works on any side: it knows messages (connection/), never a server or client.",
      "middleware/",
      ["jsonrpc/", "protocol/", "connection/", "middleware/"],
    ),
    {
      name: "opentelemetry-only-in-otel",
      comment: "@opentelemetry/api is an optional peer: only the mcpkit/otel entry point (otel/) imports it.",
      severity: "error",
      from: { path: `${src}`, pathNot: `${src}otel/` },
      to: { path: "node_modules/@opentelemetry/" },
    },
    only(
      "otel-on-middleware",
      "otel/ is middleware: it knows messages and the middleware contexts, not the server or client classes.",
      "otel/",
      [
        "jsonrpc/",
        "protocol/",
        "connection/",
        "otel/",
        "transports/transport\\.ts$",
        "server/middleware/",
        "server/server-session\\.ts$",
        "client/client-middleware\\.ts$",
      ],
    ),
    only(
      "compose-joins-server-and-client",
      "compose/ fronts servers reached by the client: server/, client/ and what they stand on, no HTTP server code.",
      "compose/",
      [
        "jsonrpc/",
        "protocol/",
        "schema/",
        "connection/",
        "server/",
        "client/",
        "compose/",
        "content\\.ts$",
        "transports/transport\\.ts$",
      ],
    ),
    only(
      "openapi-builds-on-server",
      "openapi/ turns a document into tools of a server: server/ and what it stands on, no transport or client.",
      "openapi/",
      ["jsonrpc/", "protocol/", "schema/", "connection/", "server/", "openapi/", "address-guard/", "content\\.ts$"],
    ),
    {
      name: "openapi-parser-only-in-openapi",
      comment: "The OpenAPI parser is the mcpkit/openapi entry's dependency only.",
      severity: "error",
      from: { path: `${src}`, pathNot: `${src}openapi/` },
      to: { path: "node_modules/@apidevtools/" },
    },
    only(
      "auth-stands-alone",
      "auth/ is OAuth on both sides: it knows no session, server, client or endpoint.",
      "auth/",
      [
        "jsonrpc/",
        "protocol/",
        "auth/",
        "address-guard/",
        "transports/transport\\.ts$",
        "transports/http/localhost\\.ts$",
        "transports/http/client-address\\.ts$",
        "transports/http/trust-proxy\\.ts$",
      ],
    ),
    {
      name: "auth-client-no-http-server",
      comment: "The OAuth client never imports HTTP server code.",
      severity: "error",
      from: { path: `${src}auth/client/` },
      to: { path: HTTP_SERVER },
    },
    {
      name: "dispatch-knows-no-era",
      comment:
        "The method table and its handlers see the client as a ClientPeer and the definition as a Registry: no era adapter.",
      severity: "error",
      from: { path: `${src}server/(dispatch|registry|catalog|tasks)/` },
      to: { path: `${src}server/eras/` },
    },
    {
      name: "legacy-session-stays-in-server",
      comment:
        "Outside server/, a legacy session is a ServerSession or a StoredSession (the HTTP session table): never the era's classes.",
      severity: "error",
      from: { path: `${src}`, pathNot: `${src}server/` },
      to: { path: `${src}server/eras/legacy/` },
    },
    {
      name: "server-definition-for-the-library",
      comment:
        "What McpServer holds (definitionOf) is for the endpoints and compose/, which serve it; the rest uses McpServer's public methods.",
      severity: "error",
      from: { path: `${src}`, pathNot: [`${src}server/`, `${src}endpoints/`, `${src}compose/`] },
      to: { path: `${src}server/definition\\.ts$` },
    },
    {
      name: "endpoints-on-top",
      comment:
        "endpoints/ is the only code that joins the server to an HTTP server transport; nothing below imports it.",
      severity: "error",
      from: { path: `${src}`, pathNot: [`${src}endpoints/`, `${src}testing/`, `${src}index\\.ts$`] },
      to: { path: `${src}(endpoints/)` },
    },
  ],
  options: {
    // TypeScript 7 has no compiler API yet; swc parses TypeScript, type-only imports included
    // (so the "missing-tsc-transpiler" notice dependency-cruiser prints is expected).
    parser: "swc",
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    // The inspector's page (JSX, which this parser is not set up for) is built on its own for the browser.
    exclude: { path: ["\\.d\\.ts$", "^packages/cli/src/inspector/ui/"] },
  },
};
