import type { LintRule } from "../rule.js";
import { toolAnnotations } from "./annotations.js";
import { missingDescription } from "./descriptions.js";
import { duplicatePrompt, duplicateResource } from "./duplicates.js";
import { listFailed, toolsListSize } from "./list-size.js";
import { promptShape, resourceShape, toolShape } from "./shapes.js";
import { templateShape } from "./templates.js";
import { structuredContent, toolCall } from "./tool-calls.js";
import { duplicateTool, toolName } from "./tool-names.js";
import { schemaDialect, toolInputSchema, toolOutputSchema } from "./tool-schemas.js";

/** Every rule, errors first, in the order their problems are reported. */
export const RULES: readonly LintRule[] = [
  listFailed,
  toolName,
  duplicateTool,
  toolShape,
  toolInputSchema,
  toolOutputSchema,
  toolCall,
  structuredContent,
  promptShape,
  duplicatePrompt,
  resourceShape,
  templateShape,
  duplicateResource,
  schemaDialect,
  missingDescription,
  toolAnnotations,
  toolsListSize,
];
