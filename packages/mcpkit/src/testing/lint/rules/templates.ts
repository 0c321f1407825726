import { UriTemplate } from "../../../protocol/uri-template.js";
import { isRecord, type LintRule, problem, targetOf } from "../rule.js";

export const templateShape: LintRule = {
  id: "template-shape",
  severity: "error",
  summary: "Each resource template has a uriTemplate that is a valid RFC 6570 template with a scheme, and a name.",
  fix: 'Write the template as RFC 6570 gives it, with a scheme ("docs://{path}"), and give it a name.',
  check: ({ resourceTemplates = [] }) =>
    resourceTemplates.flatMap((template, index) => {
      if (!isRecord(template))
        return [
          problem(templateShape, `template:#${index + 1}`, `The list holds ${JSON.stringify(template)}, not an object`),
        ];
      const target = targetOf("template", template.uriTemplate, index);
      const wrong: string[] = [];
      if (typeof template.uriTemplate !== "string") wrong.push("it has no uriTemplate (a string is required)");
      else {
        try {
          new UriTemplate(template.uriTemplate);
          if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(template.uriTemplate)) wrong.push("its uriTemplate has no URI scheme");
        } catch (error) {
          wrong.push((error as Error).message);
        }
      }
      if (typeof template.name !== "string") wrong.push("it has no name (a string is required)");
      if (template.mimeType !== undefined && typeof template.mimeType !== "string")
        wrong.push(`mimeType is ${JSON.stringify(template.mimeType)}, not a string`);
      return wrong.length > 0 ? [problem(templateShape, target, wrong.join("; "))] : [];
    }),
};
