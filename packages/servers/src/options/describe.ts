/**
 * A server's options, described once as data: the name a factory takes, the type, the
 * default, a line of help, the flag and the environment variables. The mcpkit command
 * makes its flags from these, `mcpkit bundle` its settings, and docs/ their tables; the
 * values read from them (read.ts) are typed by the same description.
 */
interface Described<T> {
  /** What the option does, in a few words (help and docs add the default). */
  help: string;
  /** The command line's flag: by default `--` and the name in kebab case (`maxReadBytes` → `--max-read-bytes`). */
  flag?: string;
  /** Environment variables read when the flag is not given, the first one set wins. */
  env?: readonly string[];
  /** Read from the environment only, never from a flag (where `ps` would show it), and never shown. */
  secret?: boolean;
  /** The value when the option is not given: the factory falls back to it. */
  default?: T;
  /** How help and docs say the default, where the value itself would not ("the current directory"). */
  defaultText?: string;
  /** What help calls the value (`<n>`); by default one word for its type. */
  placeholder?: string;
  /** What the docs say of it, where a line of help is too short; `help` when absent. */
  details?: string;
}

/** Any text. */
export interface TextOption extends Described<string> {
  type: "text";
}
/** An http(s) URL. */
export interface UrlOption extends Described<string> {
  type: "url";
}
/** A file's path. */
export interface FileOption extends Described<string> {
  type: "file";
}
/** One directory or more (the flag repeats, or takes several). */
export interface DirectoriesOption extends Described<string[]> {
  type: "directories";
}
/** Texts given once each (the flag repeats). */
export interface ListOption extends Described<string[]> {
  type: "list";
}
/** One of a fixed set of words. */
export interface ChoiceOption<C extends string = string> extends Described<C> {
  type: "choice";
  choices: readonly C[];
}
/** A whole number of at least `min` (1 unless said). */
export interface NumberOption extends Described<number> {
  type: "number";
  min?: number;
}
/** A whole number, or `off` (false). */
export interface LimitOption extends Described<number | false> {
  type: "limit";
  min?: number;
}
/** A duration, in ms: a bare number is in `bare` (seconds unless said), or 500ms, 90s, 15m, 2h. */
export interface DurationOption extends Described<number> {
  type: "duration";
  bare?: "s" | "ms";
  /** The least allowed, ms (1; 0 where 0 turns something off). */
  min?: number;
}
/** On or off: a flag without a value (`--no-…` when it is on by default). */
export interface SwitchOption extends Described<boolean> {
  type: "switch";
}
/** Repeatable `"Name: value"`, as headers. */
export interface HeadersOption extends Described<Record<string, string>> {
  type: "headers";
}
/** Repeatable `KEY=VALUE` (or `KEY`, passing this process's value on), as variables. */
export interface VariablesOption extends Described<Record<string, string>> {
  type: "variables";
}

export type OptionDescription =
  | TextOption
  | UrlOption
  | FileOption
  | DirectoriesOption
  | ListOption
  | ChoiceOption
  | NumberOption
  | LimitOption
  | DurationOption
  | SwitchOption
  | HeadersOption
  | VariablesOption;

/** A server's options, by the name its factory takes them under. */
export type OptionTable = Readonly<Record<string, OptionDescription>>;

/** The type of value each kind of option reads as (a choice: one of its words). */
interface ValueTypes {
  text: string;
  url: string;
  file: string;
  directories: string[];
  list: string[];
  number: number;
  limit: number | false;
  duration: number;
  switch: boolean;
  headers: Record<string, string>;
  variables: Record<string, string>;
}

/** The value one description reads as. */
export type OptionValue<D extends OptionDescription> = D extends { type: "choice"; choices: readonly (infer C)[] }
  ? C
  : D extends { type: infer K extends keyof ValueTypes }
    ? ValueTypes[K]
    : never;

/** The values a table reads as: each option its own type, absent when not given. */
export type OptionValues<T extends OptionTable> = { -readonly [K in keyof T]?: OptionValue<T[K]> };

/**
 * Declares a table and keeps its literal types (a choice's words), so that what is read
 * from it is typed: `OptionValues<typeof weatherOptions>["units"]` is `"metric" | "imperial"`.
 */
export const describeOptions = <const T extends OptionTable>(table: T): T => table;

/** `maxReadBytes` → `--max-read-bytes`. */
const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The option's flag (`--no-…` for a switch on by default), or undefined for one read from the environment only. */
export function flagOf(name: string, option: OptionDescription): string | undefined {
  if (option.secret) return undefined;
  const flag = option.flag ?? `--${kebab(name)}`;
  return option.type === "switch" && option.default === true ? flag.replace(/^--/, "--no-") : flag;
}

/** Whether the flag may be given more than once. */
export const repeats = (option: OptionDescription): boolean =>
  option.type === "directories" || option.type === "list" || option.type === "headers" || option.type === "variables";

const PLACEHOLDERS: Record<OptionDescription["type"], string> = {
  text: "value",
  url: "url",
  file: "file",
  directories: "dir",
  list: "value",
  choice: "name",
  number: "n",
  limit: "n|off",
  duration: "duration",
  switch: "",
  headers: "header",
  variables: "KEY[=VALUE]",
};

/** What help calls the value: `n`, `duration`, `dir`; empty for a switch. */
export const placeholderOf = (option: OptionDescription): string => option.placeholder ?? PLACEHOLDERS[option.type];

/** How the default reads in help and docs, or undefined when there is none to say. */
export function defaultTextOf(option: OptionDescription): string | undefined {
  if (option.defaultText !== undefined) return option.defaultText;
  const value = option.default;
  if (value === undefined || option.type === "switch") return undefined;
  if (option.type === "duration" && typeof value === "number") return durationText(value, option.bare ?? "s");
  if (value === false) return "off";
  if (Array.isArray(value)) return value.join(", ");
  return String(value);
}

/** A duration in the largest unit that says it exactly: 600000 → "10m"; in the bare unit's words when it has no other. */
export function durationText(ms: number, bare: "s" | "ms" = "s"): string {
  for (const [unit, size] of [
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1000],
  ] as const)
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  return bare === "ms" || ms % 1000 !== 0 ? `${ms}ms` : `${ms / 1000}s`;
}

/** The line of help a flag gets: the description's, with its default and where else it is read from. */
export function helpOf(option: OptionDescription): string {
  const notes = [
    ...(repeats(option) ? ["repeatable"] : []),
    ...(defaultTextOf(option) !== undefined ? [`default ${defaultTextOf(option)}`] : []),
    ...(option.env && !option.secret ? [`or $${option.env.join(" or $")}`] : []),
  ];
  return notes.length > 0 ? `${option.help} (${notes.join("; ")})` : option.help;
}
