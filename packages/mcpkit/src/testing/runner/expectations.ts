import type { JsonSchema } from "../../protocol/types/features.js";
import { compileJsonSchema } from "../../schema/validator.js";
import { isObject, preview } from "../json/sorted.js";
import { describeMismatches, matchSubset } from "../match/subset.js";
import type { Expect } from "./test-file.js";

/** What a request came back with: its result, or the JSON-RPC error the server answered. */
export type Outcome =
  | { kind: "result"; result: Record<string, unknown> }
  | { kind: "error"; code: number; message: string; data?: unknown };

/** What the runner saw of one request: the outcome, how long it took, what came meanwhile. */
export interface Observed {
  outcome: Outcome;
  ms: number;
  /** The notifications the server sent between the request and its answer. */
  notifications: { method: string; params?: unknown }[];
}

/** Where each subset expectation looks in a result. */
const SUBSETS = {
  structuredContent: (r: Record<string, unknown>) => r.structuredContent,
  content: (r: Record<string, unknown>) => r.content,
  contents: (r: Record<string, unknown>) => r.contents,
  messages: (r: Record<string, unknown>) => r.messages,
  values: (r: Record<string, unknown>) => (isObject(r.completion) ? r.completion.values : undefined),
  result: (r: Record<string, unknown>) => r,
} as const;
const POINTER_OF = {
  structuredContent: "/structuredContent",
  content: "/content",
  contents: "/contents",
  messages: "/messages",
  values: "/completion/values",
  result: "",
} as const;

/** Every `text` string in a result: the text blocks of content, contents and prompt messages. */
export function texts(value: unknown, found: string[] = [], depth = 0): string[] {
  if (depth > 32) return found;
  if (Array.isArray(value)) for (const item of value) texts(item, found, depth + 1);
  else if (isObject(value))
    for (const [key, item] of Object.entries(value)) {
      if (key === "text" && typeof item === "string") found.push(item);
      else if (key !== "_meta" && key !== "structuredContent") texts(item, found, depth + 1);
    }
  return found;
}

/**
 * The failures of one request against its expectations (docs/testing.md, "Expectations");
 * none means the test passed. A test expects success unless it says otherwise: with
 * neither `error` nor `isError: true`, a JSON-RPC error or an isError result fails it.
 */
export async function check(expect: Expect, observed: Observed): Promise<string[]> {
  const failures: string[] = [];
  const { outcome } = observed;
  const isError = outcome.kind === "error" || outcome.result.isError === true;
  const errorText =
    outcome.kind === "error" ? outcome.message : isError ? texts(outcome.result.content).join("\n") : "";
  const wantsError = expect.error === undefined ? expect.isError === true : expect.error !== false;

  if (wantsError && !isError) failures.push("expected an error (a JSON-RPC error or an isError result), got a result");
  if (!wantsError && isError)
    failures.push(
      outcome.kind === "error"
        ? `the server answered with JSON-RPC error ${outcome.code}: ${outcome.message}`
        : `the tool reported an error (isError): ${preview(errorText)}`,
    );
  if (isObject(expect.error) && isError) {
    const { code, message } = expect.error;
    if (code !== undefined)
      if (outcome.kind !== "error") failures.push(`expected JSON-RPC error ${code}, got an isError result`);
      else if (outcome.code !== code)
        failures.push(`expected JSON-RPC error ${code}, got ${outcome.code}: ${outcome.message}`);
    if (message !== undefined && !errorText.includes(message))
      failures.push(`expected the error to say ${preview(message)}, it says ${preview(errorText)}`);
  }

  const result = outcome.kind === "result" ? outcome.result : undefined;
  for (const key of Object.keys(SUBSETS) as (keyof typeof SUBSETS)[]) {
    if (expect[key] === undefined) continue;
    if (!result) {
      failures.push(`${key}: no result to look in (the server answered with an error)`);
      continue;
    }
    const prefix = POINTER_OF[key];
    const mismatches = matchSubset(expect[key], SUBSETS[key](result));
    failures.push(
      ...describeMismatches(
        mismatches.map((m) => ({ ...m, at: `${prefix}${m.at}` })),
        "",
      ),
    );
  }
  if (expect.isError !== undefined && result && (result.isError === true) !== expect.isError)
    failures.push(`expected isError ${expect.isError}, got ${result.isError === true}`);
  if (expect.text) {
    const found = result ? texts(result) : [];
    for (const wanted of expect.text)
      if (!found.some((text) => text.includes(wanted)))
        failures.push(
          `no text block contains ${preview(wanted)}${found.length ? ` (the text: ${preview(found.join(" | "))})` : " (the answer has no text)"}`,
        );
  }
  if (expect.schema !== undefined) {
    if (!result) failures.push("schema: no result to check (the server answered with an error)");
    else {
      const validation = await compileJsonSchema(expect.schema as JsonSchema)(result);
      if (!validation.ok) failures.push(`the result does not match the schema: ${validation.message}`);
    }
  }
  if (expect.maxMs !== undefined && observed.ms > expect.maxMs)
    failures.push(`took ${Math.round(observed.ms)} ms, more than maxMs ${expect.maxMs}`);
  for (const wanted of expect.notifications ?? []) {
    const method = typeof wanted === "string" ? wanted : wanted.method;
    const candidates = observed.notifications.filter((n) => n.method === method);
    if (candidates.length === 0) {
      const seen = [...new Set(observed.notifications.map((n) => n.method))];
      failures.push(
        `no ${method} came during the request${seen.length ? ` (came: ${seen.join(", ")})` : " (none came)"}`,
      );
      continue;
    }
    if (typeof wanted === "object" && wanted.params !== undefined) {
      const params = wanted.params;
      if (!candidates.some((n) => matchSubset(params, n.params).length === 0))
        failures.push(
          `no ${method} matched ${preview(params)}: ${describeMismatches(matchSubset(params, candidates[0]?.params)).join("; ")}`,
        );
    }
  }
  return failures;
}
