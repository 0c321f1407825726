import { type LintRule, problem } from "../rule.js";
import { repeated } from "./tool-names.js";

export const duplicatePrompt: LintRule = {
  id: "duplicate-prompt",
  severity: "error",
  summary: "No two prompts share a name.",
  fix: "Give each prompt its own name: prompts/get names one, so a client reaches only one of them.",
  check: ({ prompts = [] }) =>
    [...repeated(prompts, "name")].map(([name, count]) =>
      problem(duplicatePrompt, `prompt:${name}`, `${count} prompts are named ${JSON.stringify(name)}`),
    ),
};

export const duplicateResource: LintRule = {
  id: "duplicate-resource",
  severity: "error",
  summary: "No two resources share a URI; no two templates share a uriTemplate.",
  fix: "Give each resource its own URI (and each template its own uriTemplate): resources/read names one.",
  check: ({ resources = [], resourceTemplates = [] }) => [
    ...[...repeated(resources, "uri")].map(([uri, count]) =>
      problem(duplicateResource, `resource:${uri}`, `${count} resources have the URI ${JSON.stringify(uri)}`),
    ),
    ...[...repeated(resourceTemplates, "uriTemplate")].map(([uri, count]) =>
      problem(duplicateResource, `template:${uri}`, `${count} resource templates are ${JSON.stringify(uri)}`),
    ),
  ],
};
