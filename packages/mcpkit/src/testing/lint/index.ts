export { LINT_RULES, lint, lintLists } from "./lint.js";
export { callTools, readLists } from "./read-lists.js";
export type {
  LintCall,
  LintCallResult,
  LintOptions,
  LintProblem,
  LintRuleInfo,
  LintSeverity,
  RawLists,
} from "./rule.js";
