import type { JsonSchema } from "../../protocol/types/features.js";
import { isSupportedRevision, REVISIONS, type Revision } from "../../protocol/versions.js";
import { compileJsonSchema } from "../../schema/validator.js";
import { isObject } from "../json/sorted.js";

/**
 * A test file (`*.mcptest.yaml`, docs/testing.md): the server, then the tests, each one
 * request and what its answer must hold. Read strictly: a key the runner does not know is
 * a mistake (a typo would otherwise make an expectation that checks nothing).
 */
export interface TestFile {
  /** Where it was read from (absolute), or a name for a file given as text. */
  path: string;
  /** The folder commands start in: the file's own. */
  dir: string;
  server?: ServerEntry;
  protocol?: Revision;
  /** How the client answers the server's requests, for every test (a test may say otherwise). */
  client?: ClientAnswers;
  /** How long one request may take before it fails, ms. */
  timeoutMs: number;
  tests: TestCase[];
}

/** The `server:` of a file: a command, a URL, or a name from an MCP configuration file. */
export type ServerEntry =
  | { command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { url: string; headers: Record<string, string> }
  | { name: string };

export type TestRequest =
  | { kind: "call"; name: string; arguments: Record<string, unknown> }
  | { kind: "read"; uri: string }
  | { kind: "prompt"; name: string; arguments: Record<string, string> }
  | { kind: "complete"; ref: Record<string, unknown>; argument: { name: string; value: string }; context?: object }
  | { kind: "list"; list: ListName };

export const LIST_NAMES = ["tools", "prompts", "resources", "templates"] as const;
export type ListName = (typeof LIST_NAMES)[number];

export interface Expect {
  error?: boolean | { code?: number; message?: string };
  text?: string[];
  structuredContent?: unknown;
  content?: unknown;
  isError?: boolean;
  contents?: unknown;
  messages?: unknown;
  values?: unknown;
  result?: unknown;
  schema?: Record<string, unknown>;
  maxMs?: number;
  notifications?: (string | { method: string; params?: unknown })[];
}

export interface TestCase {
  name: string;
  request: TestRequest;
  expect: Expect;
  /** How the client answers the server's requests during this test (over the file's). */
  client?: ClientAnswers;
}

/**
 * What the client answers when the server asks (client/elicitation, client/sampling,
 * client/roots): given, the client declares the capability; not given, it does not.
 */
export interface ClientAnswers {
  roots?: { uri: string; name?: string }[];
  /** The answer to every elicitation/create: `{ action, content }`. */
  elicitation?: Record<string, unknown>;
  /** The answer to every sampling/createMessage: `{ role, content, model }`. */
  sampling?: Record<string, unknown>;
}

/** A test file that cannot be run as written: a usage mistake (exit 2), never a failed test. */
export class TestFileError extends Error {
  override name = "TestFileError";
}

const FILE_KEYS = ["server", "protocol", "timeout", "client", "tests"];
const TEST_KEYS = ["name", "call", "read", "prompt", "complete", "list", "arguments", "client", "expect"];
const REQUEST_KEYS = ["call", "read", "prompt", "complete", "list"] as const;
export const EXPECT_KEYS = [
  "error",
  "text",
  "structuredContent",
  "content",
  "isError",
  "contents",
  "messages",
  "values",
  "result",
  "schema",
  "maxMs",
  "notifications",
] as const;
const DEFAULT_TIMEOUT_MS = 30_000;

/** Reads a parsed YAML document as a test file; `where` names it in errors. */
export function readTestFile(value: unknown, path: string, dir: string): TestFile {
  const fail = (message: string): never => {
    throw new TestFileError(`${path}: ${message}`);
  };
  if (!isObject(value)) return fail("a test file is a mapping with `server` and `tests`");
  unknownKeys(value, FILE_KEYS, "", fail);
  const file: TestFile = { path, dir, timeoutMs: DEFAULT_TIMEOUT_MS, tests: [] };
  if (value.server !== undefined) file.server = serverEntry(value.server, fail);
  if (value.protocol !== undefined) {
    if (!isSupportedRevision(value.protocol))
      fail(`protocol: ${JSON.stringify(value.protocol)} is not a revision; choose one of ${REVISIONS.join(", ")}`);
    file.protocol = value.protocol as Revision;
  }
  if (value.client !== undefined) file.client = clientAnswers(value.client, (m) => fail(`client${m}`));
  if (value.timeout !== undefined) {
    if (typeof value.timeout !== "number" || !(value.timeout > 0))
      fail("timeout: give the milliseconds one request may take, a number above 0");
    file.timeoutMs = value.timeout as number;
  }
  if (!Array.isArray(value.tests) || value.tests.length === 0) fail("tests: give a list of at least one test");
  const names = new Set<string>();
  (value.tests as unknown[]).forEach((test, i) => {
    const read = testCase(test, (message) => fail(`tests[${i}]${message}`));
    if (names.has(read.name)) fail(`tests[${i}]: the name "${read.name}" is used twice`);
    names.add(read.name);
    file.tests.push(read);
  });
  return file;
}

function unknownKeys(value: Record<string, unknown>, known: readonly string[], at: string, fail: (m: string) => never) {
  const unknown = Object.keys(value).find((key) => !known.includes(key));
  if (unknown !== undefined) fail(`${at}: unknown key "${unknown}" (known: ${known.join(", ")})`);
}

const stringMap = (value: unknown) =>
  isObject(value) && Object.values(value).every((v) => typeof v === "string")
    ? (value as Record<string, string>)
    : undefined;

function serverEntry(value: unknown, fail: (m: string) => never): ServerEntry {
  if (typeof value === "string") {
    if (value === "") fail("server: give a command, a url, or a name from your MCP configuration");
    return /^https?:\/\//i.test(value) ? { url: value, headers: {} } : { name: value };
  }
  if (!isObject(value)) return fail("server: give { command, args }, { url }, or a name");
  if (typeof value.command === "string") {
    unknownKeys(value, ["command", "args", "env", "cwd"], " server", fail);
    const args = value.args ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === "string" || typeof a === "number"))
      fail("server.args: give a list of strings");
    const env = value.env === undefined ? {} : stringMap(value.env);
    if (!env) return fail("server.env: give a mapping of names to strings");
    if (value.cwd !== undefined && typeof value.cwd !== "string") fail("server.cwd: give a folder");
    return {
      command: value.command,
      args: (args as unknown[]).map(String),
      env,
      ...(typeof value.cwd === "string" && { cwd: value.cwd }),
    };
  }
  if (typeof value.url === "string") {
    unknownKeys(value, ["url", "headers"], " server", fail);
    const headers = value.headers === undefined ? {} : stringMap(value.headers);
    if (!headers) return fail("server.headers: give a mapping of names to strings");
    return { url: value.url, headers };
  }
  return fail("server: give { command, args }, { url }, or a name");
}

function clientAnswers(value: unknown, fail: (m: string) => never): ClientAnswers {
  if (!isObject(value)) return fail(": give { roots, elicitation, sampling }");
  unknownKeys(value, ["roots", "elicitation", "sampling"], "", fail);
  const answers: ClientAnswers = {};
  if (value.roots !== undefined) {
    if (!Array.isArray(value.roots) || !value.roots.every((r) => isObject(r) && typeof r.uri === "string"))
      fail(".roots: give a list of { uri, name }");
    answers.roots = value.roots as ClientAnswers["roots"];
  }
  for (const key of ["elicitation", "sampling"] as const) {
    if (value[key] === undefined) continue;
    if (!isObject(value[key])) fail(`.${key}: give the answer, a mapping`);
    answers[key] = value[key] as Record<string, unknown>;
  }
  return answers;
}

function testCase(value: unknown, fail: (m: string) => never): TestCase {
  if (!isObject(value))
    return fail(": a test is a mapping with `name`, a request (call, read, prompt, complete, list) and `expect`");
  unknownKeys(value, TEST_KEYS, "", fail);
  if (typeof value.name !== "string" || value.name.trim() === "") fail(": give the test a `name`");
  const name = value.name as string;
  const at = (message: string) => fail(` (${name}) ${message.replace(/^[\s:]+/, "")}`);
  const given = REQUEST_KEYS.filter((key) => value[key] !== undefined);
  if (given.length !== 1)
    at(
      given.length === 0
        ? `: say what to send: ${REQUEST_KEYS.join(", ")}`
        : `: one request per test, not ${given.join(" and ")}`,
    );
  const request = requestOf(given[0] as (typeof REQUEST_KEYS)[number], value, at);
  const client = value.client === undefined ? undefined : clientAnswers(value.client, (m) => at(`client${m}`));
  return { name, request, expect: expectOf(value.expect, at), ...(client && { client }) };
}

function requestOf(
  key: (typeof REQUEST_KEYS)[number],
  value: Record<string, unknown>,
  at: (m: string) => never,
): TestRequest {
  const args = value.arguments ?? {};
  if (!isObject(args)) at("arguments: give a mapping");
  const target = value[key];
  if (key === "call" || key === "prompt" || key === "read") {
    if (typeof target !== "string" || target === "") at(`${key}: give a ${key === "read" ? "URI" : "name"}`);
    if (key === "read") {
      if (value.arguments !== undefined) at("arguments: a read takes none");
      return { kind: "read", uri: target as string };
    }
    if (key === "call") return { kind: "call", name: target as string, arguments: args as Record<string, unknown> };
    const strings = stringMap(args);
    if (!strings) return at("arguments: a prompt's arguments are strings");
    return { kind: "prompt", name: target as string, arguments: strings };
  }
  if (value.arguments !== undefined) at(`arguments: a ${key} takes none`);
  if (key === "list") {
    if (!LIST_NAMES.includes(target as ListName)) at(`list: give one of ${LIST_NAMES.join(", ")}`);
    return { kind: "list", list: target as ListName };
  }
  return completeOf(target, at);
}

/** `complete: { ref, argument, context }`; `ref` as the protocol writes it, or `{ prompt: NAME }` / `{ resource: URI }`. */
function completeOf(value: unknown, at: (m: string) => never): TestRequest {
  if (!isObject(value)) return at("complete: give { ref, argument: { name, value } }");
  unknownKeys(value, ["ref", "argument", "context"], " complete", at);
  const ref = value.ref;
  if (!isObject(ref)) return at("complete.ref: give { prompt: NAME }, { resource: URI } or { type, name | uri }");
  const wire =
    typeof ref.prompt === "string"
      ? { type: "ref/prompt", name: ref.prompt }
      : typeof ref.resource === "string"
        ? { type: "ref/resource", uri: ref.resource }
        : ref.type === "ref/prompt" || ref.type === "ref/resource"
          ? ref
          : at("complete.ref: give { prompt: NAME }, { resource: URI } or { type: ref/prompt | ref/resource, … }");
  const argument = value.argument;
  if (!isObject(argument) || typeof argument.name !== "string" || typeof argument.value !== "string")
    return at("complete.argument: give { name, value }, both strings");
  if (value.context !== undefined && !isObject(value.context)) at("complete.context: give { arguments: { … } }");
  return {
    kind: "complete",
    ref: wire,
    argument: { name: argument.name, value: argument.value },
    ...(isObject(value.context) && { context: value.context }),
  };
}

function expectOf(value: unknown, at: (m: string) => never): Expect {
  if (value === undefined) return {};
  if (!isObject(value)) return at("expect: give a mapping");
  unknownKeys(value, EXPECT_KEYS, " expect", at);
  const expect: Expect = {};
  for (const key of ["structuredContent", "content", "contents", "messages", "values", "result"] as const)
    if (value[key] !== undefined) expect[key] = value[key];
  if (value.error !== undefined) {
    const error = value.error;
    if (typeof error === "boolean") expect.error = error;
    else if (isObject(error)) {
      unknownKeys(error, ["code", "message"], " expect.error", at);
      if (error.code !== undefined && !Number.isInteger(error.code))
        at("expect.error.code: give a JSON-RPC error code");
      if (error.message !== undefined && typeof error.message !== "string") at("expect.error.message: give text");
      expect.error = error as { code?: number; message?: string };
    } else at("expect.error: give true, false or { code, message }");
  }
  if (value.isError !== undefined) {
    if (typeof value.isError !== "boolean") at("expect.isError: give true or false");
    expect.isError = value.isError as boolean;
  }
  if (value.text !== undefined) {
    const text = typeof value.text === "string" ? [value.text] : value.text;
    if (!Array.isArray(text) || !text.every((t) => typeof t === "string"))
      at("expect.text: give text, or a list of them");
    expect.text = text as string[];
  }
  if (value.schema !== undefined) {
    if (!isObject(value.schema)) at("expect.schema: give a JSON Schema (a mapping)");
    try {
      compileJsonSchema(value.schema as JsonSchema);
    } catch (error) {
      at(`expect.schema: ${(error as Error).message}`);
    }
    expect.schema = value.schema as Record<string, unknown>;
  }
  if (value.maxMs !== undefined) {
    if (typeof value.maxMs !== "number" || !(value.maxMs > 0)) at("expect.maxMs: give milliseconds, above 0");
    expect.maxMs = value.maxMs as number;
  }
  if (value.notifications !== undefined) {
    const list = value.notifications;
    if (
      !Array.isArray(list) ||
      !list.every((n) => typeof n === "string" || (isObject(n) && typeof n.method === "string"))
    )
      at("expect.notifications: give a list of methods, or of { method, params }");
    expect.notifications = list as Expect["notifications"] & unknown[];
  }
  return expect;
}
