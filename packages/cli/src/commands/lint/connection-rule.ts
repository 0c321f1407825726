import type { LintProblem, LintRuleInfo } from "mcpkit/testing";

/** The rule `mcpkit lint` reports when it cannot read the lists at all (the library's rules need them). */
export const connectionRule: LintRuleInfo = {
  id: "connection",
  severity: "error",
  summary: "mcpkit lint connects to the server and reads its lists; when it cannot, nothing else is checked.",
  fix: "Run mcpkit doctor with the same server: it finds why, step by step (a protected server takes --header 'Authorization: Bearer TOKEN').",
};

export const connectionProblem = (message: string): LintProblem => ({
  rule: connectionRule.id,
  severity: connectionRule.severity,
  target: "server",
  message,
  fix: connectionRule.fix,
});
