/**
 * `@mcpkit/servers/options`: how the built-in servers' options are described (one table
 * per server: name, type, default, help, flag, environment variables), read into the
 * typed values their factories take, and the parsing of option values every tool of
 * mcpkit's shares: durations, whole numbers, headers, variables, and the usage error.
 */
export {
  type ChoiceOption,
  type DirectoriesOption,
  type DurationOption,
  defaultTextOf,
  describeOptions,
  durationText,
  type FileOption,
  flagOf,
  type HeadersOption,
  helpOf,
  type LimitOption,
  type ListOption,
  type NumberOption,
  type OptionDescription,
  type OptionTable,
  type OptionValue,
  type OptionValues,
  placeholderOf,
  repeats,
  type SwitchOption,
  type TextOption,
  type UrlOption,
  type VariablesOption,
} from "./describe.js";
export { type DurationOptions, durationMs } from "./duration.js";
export { parseEnv, parseHeaders } from "./headers.js";
export { positive, wholeNumber } from "./numbers.js";
export { readOptions } from "./read.js";
export { UsageError } from "./usage-error.js";
