import type { CommandTarget, UrlTarget } from "mcpkit/testing";
import type { Target } from "../../inspector/target.js";

/** The target as mcpkit/testing takes it. */
export function libraryTarget(target: Target): CommandTarget | UrlTarget {
  if (target.kind === "http") return { url: target.url, headers: target.headers };
  return {
    command: target.command,
    args: target.args,
    env: target.env,
    ...(target.cwd !== undefined && { cwd: target.cwd }),
  };
}

/** The values given for the server that are secrets: its variables and headers. */
export function secretsOf(target: Target): string[] {
  return Object.values(target.kind === "http" ? target.headers : target.env);
}
