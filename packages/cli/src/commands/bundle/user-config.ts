import { flagOf, type OptionTable } from "@mcpkit/servers/options";

/** One setting a bundle asks its user for (manifest `user_config`), and how the server gets it. */
export interface UserSetting {
  type: "string" | "number" | "boolean" | "directory" | "file";
  title: string;
  description: string;
  required?: boolean;
  default?: string | number | boolean | string[];
  multiple?: boolean;
  sensitive?: boolean;
  min?: number;
  max?: number;
  /** The environment variable the server reads it from (your module). */
  env?: string;
  /** The flag it is given as (a built-in server). */
  flag?: string;
}

const TYPES = ["string", "number", "boolean", "directory", "file"];
const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ENV = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Your module's `export const userConfig = { key: { type, title, description, env, … } }`
 * (docs/workflow.md, "Bundle"), checked: each setting names the environment variable the
 * server reads, and has the fields an MCP Bundle's user_config requires.
 */
export function checkUserConfig(value: unknown, file: string): Record<string, UserSetting> {
  if (value === undefined) return {};
  const problem = (what: string) => new Error(`${file}: userConfig ${what}`);
  if (typeof value !== "object" || value === null) throw problem("must be an object of settings");
  const out: Record<string, UserSetting> = {};
  for (const [key, setting] of Object.entries(value as Record<string, unknown>)) {
    if (!KEY.test(key)) throw problem(`key "${key}" must be letters, digits and _`);
    const s = setting as Partial<UserSetting>;
    if (!TYPES.includes(String(s?.type))) throw problem(`"${key}" needs a type: ${TYPES.join(", ")}`);
    if (typeof s.title !== "string" || typeof s.description !== "string")
      throw problem(`"${key}" needs a title and a description`);
    if (typeof s.env !== "string" || !ENV.test(s.env))
      throw problem(`"${key}" needs env: the environment variable the server reads it from`);
    out[key] = s as UserSetting;
  }
  return out;
}

/**
 * A built-in server's settings, from its options' descriptions (@mcpkit/servers): its
 * directories (`--root <dir...>`) and each option with a fixed set of values (its
 * default first). Other options are left to edit in the client's configuration.
 */
export function builtInUserConfig(options: OptionTable): Record<string, UserSetting> {
  const out: Record<string, UserSetting> = {};
  for (const [key, option] of Object.entries(options)) {
    const flag = flagOf(key, option);
    if (!flag) continue;
    const title = flag
      .slice(2)
      .replace(/-/g, " ")
      .replace(/^./, (c) => c.toUpperCase());
    if (option.type === "directories")
      out[key] = { type: "directory", title, description: option.help, multiple: true, required: true, flag };
    else if (option.type === "choice")
      out[key] = {
        type: "string",
        title,
        description: option.help,
        default: option.default ?? (option.choices[0] as string),
        flag,
      };
  }
  return out;
}
