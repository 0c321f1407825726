import { invalidParams } from "../../jsonrpc/errors.js";
import type { Icon, Meta } from "../../protocol/types/common.js";
import type { GetPromptResult, Prompt, PromptArgument, PromptMessage } from "../../protocol/types/features.js";
import { type Infer, isStandardSchema, type StandardSchemaV1 } from "../../schema/standard.js";
import { compileSchema, type Validator } from "../../schema/validator.js";
import type { Context } from "../handler-context.js";
import type { VisibilityRule } from "../visibility.js";
import type { Completer } from "./completer.js";
import type { Keyed } from "./feature-set.js";

export interface PromptArgumentSpec {
  title?: string;
  description?: string;
  required?: boolean;
}

/** Arguments as a record of specs, or a Standard Schema object of strings. */
export type PromptArgs = Record<string, PromptArgumentSpec> | StandardSchemaV1;

export interface PromptConfig<A extends PromptArgs | undefined> {
  title?: string;
  description?: string;
  args?: A;
  /** Completion for argument values (completion/complete with ref/prompt), by argument name. */
  complete?: { [K in PromptArgName<A>]?: Completer };
  icons?: Icon[];
  _meta?: Meta;
  enabled?: boolean;
  /** OAuth scopes a caller needs (checked when the request carries a verified token). */
  scopes?: string[];
  /**
   * Shows it only to some callers (by principal, session or client); hidden, it is neither
   * listed nor known by name. Clients are told of list changes only when their view changed.
   */
  visible?: VisibilityRule;
}

/** The names of the declared arguments (any string while they are not known). */
export type PromptArgName<A> = A extends StandardSchemaV1
  ? keyof Infer<A> & string
  : A extends Record<string, PromptArgumentSpec>
    ? keyof A & string
    : never;

type RequiredArg<A> = { [K in keyof A]: A[K] extends { required: true } ? K : never }[keyof A];

/**
 * The values a handler gets: the schema's type, or for the record form a string for each
 * declared argument, present when it is `required: true` (the server checks), else optional.
 */
export type PromptArgValues<A> = unknown extends A
  ? Record<string, string>
  : A extends StandardSchemaV1
    ? Infer<A>
    : A extends Record<string, PromptArgumentSpec>
      ? string extends keyof A
        ? Record<string, string>
        : { [K in RequiredArg<A> & string]: string } & { [K in Exclude<keyof A, RequiredArg<A>> & string]?: string }
      : Record<string, never>;

/** What a prompt handler may return: a full result, a message list, or a string for one user message. */
export type PromptReturn = GetPromptResult | PromptMessage[] | string;

export type PromptHandler<A> = (args: PromptArgValues<A>, ctx: Context) => PromptReturn | Promise<PromptReturn>;

export interface PromptEntry extends Keyed {
  definition: Prompt;
  visible?: VisibilityRule | undefined;
  scopes: string[] | undefined;
  /** Checks required arguments (record form) or the whole schema (schema form). */
  validate: Validator<Record<string, unknown>>;
  complete: Partial<Record<string, Completer>>;
  handler: PromptHandler<unknown>;
}

export function promptEntry(
  name: string,
  config: PromptConfig<PromptArgs | undefined>,
  handler: PromptHandler<unknown>,
): PromptEntry {
  if (name === "") throw new TypeError("A prompt needs a name");
  let args: PromptArgument[] | undefined;
  let validate: Validator<Record<string, unknown>>;
  if (config.args === undefined) {
    validate = (value) => ({ ok: true, value: value as Record<string, unknown> });
  } else if (isStandardSchema(config.args)) {
    const compiled = compileSchema<Record<string, unknown>>(config.args);
    const props = (compiled.jsonSchema.properties ?? {}) as Record<string, { description?: string; title?: string }>;
    const required = new Set((compiled.jsonSchema.required as string[] | undefined) ?? []);
    args = Object.entries(props).map(([argName, p]) => ({
      name: argName,
      ...(p.title !== undefined && { title: p.title }),
      ...(p.description !== undefined && { description: p.description }),
      required: required.has(argName),
    }));
    validate = compiled.validate;
  } else {
    const specs = config.args;
    args = Object.entries(specs).map(([argName, spec]) => ({ name: argName, ...spec }));
    const required = args.filter((a) => a.required).map((a) => a.name);
    validate = (value) => {
      const given = value as Record<string, unknown>;
      const missing = required.filter((r) => typeof given[r] !== "string");
      return missing.length === 0
        ? { ok: true, value: given }
        : { ok: false, message: `missing required argument${missing.length > 1 ? "s" : ""} ${missing.join(", ")}` };
    };
  }
  const definition: Prompt = {
    name,
    ...(config.title !== undefined && { title: config.title }),
    ...(config.description !== undefined && { description: config.description }),
    ...(args && { arguments: args }),
    ...(config.icons && { icons: config.icons }),
    ...(config._meta && { _meta: config._meta }),
  };
  return {
    key: name,
    enabled: config.enabled ?? true,
    definition,
    scopes: config.scopes,
    visible: config.visible,
    validate,
    complete: config.complete ?? {},
    handler,
  };
}

export function toPromptResult(value: PromptReturn): GetPromptResult {
  if (typeof value === "string") return { messages: [{ role: "user", content: { type: "text", text: value } }] };
  if (Array.isArray(value)) return { messages: value };
  if (!value || !Array.isArray(value.messages)) throw new TypeError("A prompt handler must return messages");
  return value;
}

export const promptArgumentsError = (name: string, message: string) =>
  invalidParams(`Invalid arguments for prompt ${name}: ${message}`);
