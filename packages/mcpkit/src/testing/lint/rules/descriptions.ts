import { isRecord, type LintRule, problem, targetOf } from "../rule.js";

const missing = (item: unknown) =>
  isRecord(item) &&
  (item.description === undefined || (typeof item.description === "string" && item.description.trim() === ""));

export const missingDescription: LintRule = {
  id: "missing-description",
  severity: "warning",
  summary: "Each tool, prompt, resource and template has a description.",
  fix: "Add a description: a model chooses tools and prompts by what their descriptions say, and people read them in clients.",
  check: ({ tools = [], prompts = [], resources = [], resourceTemplates = [] }) => [
    ...tools.flatMap((tool, i) =>
      missing(tool)
        ? [
            problem(
              missingDescription,
              targetOf("tool", (tool as { name?: unknown }).name, i),
              "The tool has no description",
            ),
          ]
        : [],
    ),
    ...prompts.flatMap((prompt, i) =>
      missing(prompt)
        ? [
            problem(
              missingDescription,
              targetOf("prompt", (prompt as { name?: unknown }).name, i),
              "The prompt has no description",
            ),
          ]
        : [],
    ),
    ...resources.flatMap((resource, i) =>
      missing(resource)
        ? [
            problem(
              missingDescription,
              targetOf("resource", (resource as { uri?: unknown }).uri, i),
              "The resource has no description",
            ),
          ]
        : [],
    ),
    ...resourceTemplates.flatMap((template, i) =>
      missing(template)
        ? [
            problem(
              missingDescription,
              targetOf("template", (template as { uriTemplate?: unknown }).uriTemplate, i),
              "The resource template has no description",
            ),
          ]
        : [],
    ),
  ],
};
