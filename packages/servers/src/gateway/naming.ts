/**
 * How the gateway names what it serves: each upstream's tools and prompts as
 * `<server><separator><name>` (default separator `_`), the server's name made of the
 * characters the specification allows in a tool name (server/tools §Tool Names: letters,
 * digits, `_`, `-`, `.`; any other becomes `-`), a name longer than 128 characters
 * refused with a rename suggested. Pure functions: the same name in, the same out, so a
 * reload cannot change a name that the configuration did not.
 */

/** The longest tool or prompt name the specification advises (server/tools §Tool Names). */
export const MAX_NAME = 128;

const NAME = /^[A-Za-z0-9_.-]+$/;
const SEPARATOR = /^[_.-]{1,3}$/;

/** Why a separator cannot be used, or undefined when it can. */
export function separatorProblem(separator: string): string | undefined {
  return SEPARATOR.test(separator)
    ? undefined
    : 'must be one to three of "_", "-" and "." (a tool name holds no other)';
}

/** The prefix a server's name gives its tools: each character a tool name may not hold becomes `-`. */
export function serverPrefix(server: string): string {
  return server.replace(/[^A-Za-z0-9_.-]/g, "-");
}

/** Why a server's name cannot be a prefix (it must start with a letter or digit), or undefined. */
export function prefixProblem(server: string): string | undefined {
  const prefix = serverPrefix(server);
  if (/^[A-Za-z0-9]/.test(prefix)) return undefined;
  const suggestion = prefix.replace(/^[^A-Za-z0-9]+/, "");
  return `a server's name must start with a letter or digit, as its tools' names will${suggestion ? `: rename it "${suggestion}"` : ""}`;
}

/** The name a tool or prompt is served under: renamed, or `<prefix><separator><name>`. */
export function servedName(prefix: string, separator: string, name: string, rename?: string): string {
  return rename ?? `${prefix}${separator}${name}`;
}

/** Why a served name cannot be used (too long, characters a tool name may not hold), or undefined. */
export function nameProblem(name: string): string | undefined {
  if (name.length === 0) return "a name cannot be empty";
  if (!NAME.test(name)) return `"${name}" holds characters a tool name may not (letters, digits, "_", "-", "." only)`;
  if (name.length > MAX_NAME) return `"${name}" is ${name.length} characters, more than the ${MAX_NAME} a name may be`;
  return undefined;
}

/**
 * What to write in `gateway.servers.<server>.tools.rename` (or `prompts`) so that an
 * upstream name served too long fits: the prefix and as much of the name as fits.
 */
export function renameSuggestion(server: string, kind: "tools" | "prompts", upstreamName: string, served: string) {
  const room = MAX_NAME - (served.length - upstreamName.length);
  const shorter =
    room >= 8
      ? served.slice(0, served.length - upstreamName.length) + upstreamName.slice(0, room)
      : upstreamName.slice(0, MAX_NAME);
  return `add "gateway": { "servers": { ${JSON.stringify(server)}: { "${kind}": { "rename": { ${JSON.stringify(upstreamName)}: ${JSON.stringify(shorter)} } } } }`;
}

/** Whether `name` matches `pattern`, where `*` stands for any characters (none included). */
export function matches(pattern: string, name: string): boolean {
  if (!pattern.includes("*")) return pattern === name;
  const parts = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join(".*")}$`, "s").test(name);
}
