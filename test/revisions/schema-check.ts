/**
 * Validates JSON-RPC messages against one protocol revision's official schema.json
 * (schemas/<revision>/schema.json beside this file: the specification's own, vendored).
 *
 * Each revision's document is loaded once and added to its own Ajv instance (draft-07 for
 * the `definitions` era, draft 2020-12 for `$defs`), then named definitions are compiled on
 * first use. Two modes:
 *  - `validate`: the schema as published. MCP schemas never close an object, so this proves
 *    shapes and types but lets any extra field through.
 *  - `undeclared`: a closed copy of the same document, in which every object that lists its
 *    `properties` gets `additionalProperties: false`, except the parts the spec leaves open
 *    on purpose (see OPEN_PROPERTIES). It finds fields a revision does not define.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;
export type TestedRevision = (typeof REVISIONS)[number];

/** True when `revision` is `since` or newer. */
export const atLeast = (revision: TestedRevision, since: TestedRevision): boolean =>
  REVISIONS.indexOf(revision) >= REVISIONS.indexOf(since);

const SPEC_DIR = fileURLToPath(new URL("./schemas/", import.meta.url));

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
type SchemaObject = { [key: string]: JsonValue };

interface AjvError {
  instancePath: string;
  schemaPath: string;
  message?: string;
  params?: Record<string, unknown>;
}
type AjvValidate = ((value: unknown) => boolean) & { errors?: AjvError[] | null };
interface AjvInstance {
  addSchema(schema: object, key: string): unknown;
  getSchema(ref: string): AjvValidate | undefined;
}

const require = createRequire(import.meta.url);

function newAjv(draft: "draft-07" | "2020-12"): AjvInstance {
  const module = draft === "draft-07" ? require("ajv") : require("ajv/dist/2020");
  const Ajv = module.default ?? module;
  // strict: false: the schemas carry keywords Ajv does not know (e.g. `enumNames` descriptions).
  const ajv: AjvInstance = new Ajv({ strict: false, allErrors: true });
  const formats = require("ajv-formats");
  (formats.default ?? formats)(ajv);
  return ajv;
}

/**
 * Properties whose values the spec leaves open, so the closed copy does not descend into
 * them: JSON Schemas carried as data, capabilities ("not a closed set"), free-form maps.
 */
const OPEN_PROPERTIES = new Set([
  "_meta",
  "inputSchema",
  "outputSchema",
  "requestedSchema",
  "capabilities",
  "experimental",
  "arguments",
  "structuredContent",
  "metadata",
  "data",
]);
/**
 * Definitions left open: Task, Result and NotificationParams are combined with allOf in
 * 2025-11-25 (closing a member of an allOf rejects every instance); capabilities are "not a
 * closed set" by the spec's own words.
 */
const OPEN_DEFINITIONS = new Set(["Task", "Result", "NotificationParams", "ServerCapabilities", "ClientCapabilities"]);

/**
 * A copy of `node` in which every object schema listing `properties` (and no
 * additionalProperties) is closed. Every request's and notification's `params` may carry
 * `_meta` (the Request/Notification base of every revision), even where the method's own
 * params do not list it, so `params` objects get it declared.
 */
function closeObjects(node: JsonValue, isParams = false): JsonValue {
  if (Array.isArray(node)) return node.map((n) => closeObjects(n));
  if (node === null || typeof node !== "object") return node;
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "properties" && value !== null && typeof value === "object" && !Array.isArray(value)) {
      const props: SchemaObject = {};
      for (const [name, sub] of Object.entries(value)) {
        props[name] = OPEN_PROPERTIES.has(name) ? sub : closeObjects(sub, name === "params");
      }
      if (isParams && !("_meta" in props)) props._meta = { type: "object" };
      out[key] = props;
    } else {
      out[key] = closeObjects(value);
    }
  }
  const isObjectSchema = "properties" in node && !("additionalProperties" in node) && !("patternProperties" in node);
  if (isObjectSchema) out.additionalProperties = false;
  return out;
}

function closedDocument(document: SchemaObject, defsKey: string): SchemaObject {
  const defs = document[defsKey] as SchemaObject;
  const closed: SchemaObject = {};
  for (const [name, def] of Object.entries(defs)) {
    closed[name] = OPEN_DEFINITIONS.has(name) ? def : closeObjects(def);
  }
  return { ...document, [defsKey]: closed };
}

/**
 * Places where a revision's schema.json contradicts the same revision's TypeScript schema
 * (schema.mdx, the source schema.json is generated from). Each is patched at load time, in
 * both the open and closed copies. `patch` reports whether the file still has the error, so a
 * fixed spec makes the errata test fail instead of silently patching nothing.
 */
export interface Erratum {
  revisions: readonly TestedRevision[];
  what: string;
  /** Returns true when it found (and fixed) the error in `definitions`. */
  patch(definitions: SchemaObject): boolean;
}

export const ERRATA: readonly Erratum[] = [
  {
    revisions: ["2025-06-18", "2025-11-25"],
    what:
      "ElicitResult.content values are typed string|integer|boolean in schema.json, but schema.mdx says " +
      '`string | number | boolean` (2025-11-25: `| string[]`) and NumberSchema allows type "number", ' +
      "so a form answer like 95.5 (the SEP-1034 default of the conformance fixture) is rejected.",
    patch(definitions) {
      const content = ((definitions.ElicitResult as SchemaObject | undefined)?.properties as SchemaObject | undefined)
        ?.content as SchemaObject | undefined;
      let patched = false;
      const fix = (node: JsonValue | undefined) => {
        if (node === null || typeof node !== "object" || Array.isArray(node)) return;
        const type = node.type;
        if (Array.isArray(type) && type.includes("integer") && !type.includes("number")) {
          node.type = type.map((t) => (t === "integer" ? "number" : t));
          patched = true;
        }
        for (const branch of (node.anyOf ?? []) as JsonValue[]) fix(branch);
      };
      fix(content?.additionalProperties);
      return patched;
    },
  },
];

/** One revision's schema, compiled lazily. */
export class RevisionSchema {
  readonly revision: TestedRevision;
  readonly document: SchemaObject;
  readonly draft: "draft-07" | "2020-12";
  /** The errata (see ERRATA) that were found in this file and patched. */
  readonly patched: Erratum[] = [];
  private readonly defsKey: "definitions" | "$defs";
  private readonly ajv: AjvInstance;
  private readonly cache = new Map<string, AjvValidate>();
  private readonly unions = new Map<string, Map<string, string>>();

  constructor(revision: TestedRevision) {
    this.revision = revision;
    this.document = JSON.parse(readFileSync(join(SPEC_DIR, revision, "schema.json"), "utf8")) as SchemaObject;
    const dialect = String(this.document.$schema ?? "");
    if (dialect.includes("draft-07")) this.draft = "draft-07";
    else if (dialect.includes("2020-12")) this.draft = "2020-12";
    else throw new Error(`${revision}/schema.json: unexpected $schema ${dialect}`);
    this.defsKey = "$defs" in this.document ? "$defs" : "definitions";
    for (const erratum of ERRATA) {
      if (erratum.revisions.includes(revision) && erratum.patch(this.document[this.defsKey] as SchemaObject))
        this.patched.push(erratum);
    }
    this.ajv = newAjv(this.draft);
    const { $schema: _dialect, ...open } = this.document;
    this.ajv.addSchema(open, `open-${revision}`);
    const { $schema: _d, ...closed } = closedDocument(this.document, this.defsKey);
    this.ajv.addSchema(closed, `closed-${revision}`);
  }

  get definitionNames(): string[] {
    return Object.keys(this.document[this.defsKey] as SchemaObject);
  }

  has(name: string): boolean {
    return Object.hasOwn(this.document[this.defsKey] as SchemaObject, name);
  }

  definition(name: string): SchemaObject {
    const def = (this.document[this.defsKey] as SchemaObject)[name];
    if (def === undefined || def === null || typeof def !== "object" || Array.isArray(def))
      throw new Error(`${this.revision}/schema.json has no definition ${name}`);
    return def;
  }

  /** The first of `names` this revision defines (names differ a little between revisions). */
  pick(...names: string[]): string {
    const found = names.find((n) => this.has(n));
    if (!found) throw new Error(`${this.revision}/schema.json defines none of ${names.join(", ")}`);
    return found;
  }

  private compiled(mode: "open" | "closed", name: string): AjvValidate {
    const key = `${mode}:${name}`;
    let validate = this.cache.get(key);
    if (!validate) {
      this.definition(name); // a clear error for an unknown name
      validate = this.ajv.getSchema(`${mode}-${this.revision}#/${this.defsKey}/${name}`);
      if (!validate) throw new Error(`${this.revision}: could not compile ${name}`);
      this.cache.set(key, validate);
    }
    return validate;
  }

  /** Ajv's errors for `value` against definition `name`, formatted; empty when valid. */
  validate(name: string, value: unknown): string[] {
    return this.run("open", name, value);
  }

  /** Like validate, against the closed copy: also reports fields the revision does not define. */
  undeclared(name: string, value: unknown): string[] {
    return this.run("closed", name, value);
  }

  private run(mode: "open" | "closed", name: string, value: unknown): string[] {
    const validate = this.compiled(mode, name);
    if (validate(value)) return [];
    return formatErrors(validate.errors ?? []);
  }

  /**
   * method → definition name for the members of a union such as ServerRequest or
   * ClientNotification, read from each member's `method` const.
   */
  union(name: string): Map<string, string> {
    let map = this.unions.get(name);
    if (!map) {
      map = new Map();
      const members = (this.definition(name).anyOf ?? []) as SchemaObject[];
      for (const member of members) {
        const ref = typeof member.$ref === "string" ? member.$ref.split("/").pop() : undefined;
        if (!ref) continue;
        const method = (this.definition(ref).properties as SchemaObject | undefined)?.method as
          | SchemaObject
          | undefined;
        if (typeof method?.const === "string") map.set(method.const, ref);
      }
      this.unions.set(name, map);
    }
    return map;
  }
}

export function formatErrors(errors: AjvError[], limit = 15): string[] {
  const lines = errors.map((e) => {
    const where = e.instancePath || "(root)";
    const params = e.params && Object.keys(e.params).length > 0 ? ` ${JSON.stringify(e.params)}` : "";
    return `${where} ${e.message ?? "is invalid"}${params} [${e.schemaPath}]`;
  });
  const unique = [...new Set(lines)];
  return unique.length > limit ? [...unique.slice(0, limit), `… ${unique.length - limit} more`] : unique;
}

const schemas = new Map<TestedRevision, RevisionSchema>();

/** The revision's schema, loaded once per test file. */
export function schemaFor(revision: TestedRevision): RevisionSchema {
  let schema = schemas.get(revision);
  if (!schema) {
    schema = new RevisionSchema(revision);
    schemas.set(revision, schema);
  }
  return schema;
}

/** The result definition for each request method (requests without one answer EmptyResult). */
export const RESULT_DEFINITIONS: Readonly<Record<string, string>> = {
  initialize: "InitializeResult",
  ping: "EmptyResult",
  "tools/list": "ListToolsResult",
  "tools/call": "CallToolResult",
  "resources/list": "ListResourcesResult",
  "resources/templates/list": "ListResourceTemplatesResult",
  "resources/read": "ReadResourceResult",
  "resources/subscribe": "EmptyResult",
  "resources/unsubscribe": "EmptyResult",
  "prompts/list": "ListPromptsResult",
  "prompts/get": "GetPromptResult",
  "completion/complete": "CompleteResult",
  "logging/setLevel": "EmptyResult",
  "sampling/createMessage": "CreateMessageResult",
  "elicitation/create": "ElicitResult",
  "roots/list": "ListRootsResult",
  "tasks/get": "GetTaskResult",
  "tasks/result": "GetTaskPayloadResult",
  "tasks/list": "ListTasksResult",
  "tasks/cancel": "CancelTaskResult",
};

export type Side = "server" | "client";

export interface MessageCheckOptions {
  /** Which peer sent the message: picks ServerRequest/ServerNotification or the client's. */
  from: Side;
  /** The method of the request a response answers (the other side sent it). */
  requestMethod: (id: unknown) => string | undefined;
  /** Also report fields the revision does not define (the closed copy). */
  closed?: boolean;
}

type Message = Record<string, unknown>;

/**
 * Before 2025-11-25 the method definitions (PingRequest, ProgressNotification, ...) list only
 * `method` and `params`; `jsonrpc` and `id` belong to the envelope, checked on its own.
 */
function withoutUndeclaredEnvelope(schema: RevisionSchema, definition: string, message: Message): Message {
  const declared = (schema.definition(definition).properties ?? {}) as SchemaObject;
  const body = { ...message };
  if (!("jsonrpc" in declared)) delete body.jsonrpc;
  if (!("id" in declared)) delete body.id;
  return body;
}

/**
 * Checks one wire message (or batch) against the envelope definition and the definition
 * its method selects. Returns a line per problem, each naming revision, direction,
 * method and the definition; empty when everything matches.
 */
export function checkMessage(schema: RevisionSchema, value: unknown, options: MessageCheckOptions): string[] {
  const rev = schema.revision;
  const arrow = options.from === "server" ? "server→client" : "client→server";
  const problems: string[] = [];
  const check = (label: string, definition: string, v: unknown) => {
    const errors = options.closed ? schema.undeclared(definition, v) : schema.validate(definition, v);
    if (errors.length > 0)
      problems.push(`[${rev}] ${arrow} ${label} does not match ${definition}:\n    ${errors.join("\n    ")}`);
  };

  if (Array.isArray(value)) {
    const isResponses = value.some((m) => typeof m === "object" && m !== null && !("method" in m));
    const batch = isResponses ? "JSONRPCBatchResponse" : "JSONRPCBatchRequest";
    if (!schema.has(batch)) problems.push(`[${rev}] ${arrow} sent a batch, but ${rev} defines no ${batch}`);
    else check("batch", batch, value);
    for (const item of value) problems.push(...checkMessage(schema, item, options));
    return problems;
  }

  const message = value as Message;
  const side = options.from === "server" ? "Server" : "Client";
  if (typeof message.method === "string") {
    const method = message.method;
    const isRequest = "id" in message;
    const kind = isRequest ? "Request" : "Notification";
    const label = `${kind.toLowerCase()} ${method}${isRequest ? ` (id ${JSON.stringify(message.id)})` : ""}`;
    check(label, isRequest ? "JSONRPCRequest" : "JSONRPCNotification", message);
    const definition = schema.union(`${side}${kind}`).get(method);
    if (!definition) problems.push(`[${rev}] ${arrow} ${label}: ${rev} defines no ${side}${kind} ${method}`);
    else check(label, definition, withoutUndeclaredEnvelope(schema, definition, message));
    return problems;
  }

  const method = options.requestMethod(message.id);
  const label = `response to ${method ?? "an unknown request"} (id ${JSON.stringify(message.id)})`;
  if ("error" in message) {
    check(label, schema.pick("JSONRPCErrorResponse", "JSONRPCError"), message);
    return problems;
  }
  check(label, schema.pick("JSONRPCResultResponse", "JSONRPCResponse"), message);
  // A task-augmented request (2025-11-25, with a `task` param) is answered with the task.
  const createsTask =
    method === "tools/call" &&
    typeof (message.result as Message | undefined)?.task === "object" &&
    schema.has("CreateTaskResult");
  const definition = createsTask ? "CreateTaskResult" : method === undefined ? undefined : RESULT_DEFINITIONS[method];
  if (!definition) {
    problems.push(`[${rev}] ${arrow} ${label}: no result definition is known for this request`);
    return problems;
  }
  if (!schema.has(definition)) {
    problems.push(`[${rev}] ${arrow} ${label}: ${rev} defines no ${definition}`);
    return problems;
  }
  check(label, definition, message.result);
  return problems;
}
