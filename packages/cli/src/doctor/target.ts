/**
 * The server to diagnose: an HTTP endpoint, or a command that speaks MCP on stdio. The
 * same shape as the inspector's Target, so the inspector hands its own over as it is.
 */
export type DoctorTarget =
  | { kind: "http"; url: string; headers: Record<string, string> }
  | { kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string };

/** One line naming the target. */
export function describeTarget(target: DoctorTarget): string {
  return target.kind === "http" ? target.url : [target.command, ...target.args].join(" ");
}
