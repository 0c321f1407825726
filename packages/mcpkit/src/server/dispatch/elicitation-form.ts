import type { RevisionRules } from "../../protocol/revisions.js";
import type { ElicitFormParams } from "../../protocol/types/features.js";
import type { StandardSchemaV1 } from "../../schema/standard.js";
import { compileSchema, type Validator } from "../../schema/validator.js";

/** client/elicitation §Requested Schema: the form schema a handler asks with. */

export type RequestedSchema = ElicitFormParams["requestedSchema"];
type Field = Record<string, unknown>;

interface FormSchema {
  requestedSchema: RequestedSchema;
  validate: Validator;
}

const compiled = new WeakMap<object, FormSchema>();

/** Compiled once per schema object, like tool schemas. */
export function formSchema(schema: StandardSchemaV1 | RequestedSchema): FormSchema {
  let form = compiled.get(schema);
  if (!form) {
    const { jsonSchema, validate } = compileSchema(schema);
    const { $schema: _dialect, ...requestedSchema } = jsonSchema;
    checkRestricted(requestedSchema as RequestedSchema);
    form = { requestedSchema: requestedSchema as RequestedSchema, validate };
    compiled.set(schema, form);
  }
  return form;
}

/** A flat object of primitive properties (strings, numbers, booleans, enums, enum arrays). */
function checkRestricted(schema: RequestedSchema): void {
  if (schema?.type !== "object" || typeof schema.properties !== "object")
    throw new TypeError('An elicitation schema must be { type: "object", properties: {...} }');
  for (const [name, prop] of Object.entries(schema.properties)) {
    const type = (prop as Field).type;
    const ok =
      type === "string" ||
      type === "number" ||
      type === "integer" ||
      type === "boolean" ||
      (type === "array" && typeof (prop as Field).items === "object");
    if (!ok)
      throw new TypeError(`Elicitation field "${name}" must be a string, number, integer, boolean or enum array`);
  }
}

// The keywords each field kind had in 2025-06-18's PrimitiveSchemaDefinition.
const KEEP_2025_06: Record<string, readonly string[]> = {
  string: ["type", "title", "description", "format", "minLength", "maxLength", "enum", "enumNames"],
  number: ["type", "title", "description", "minimum", "maximum"],
  integer: ["type", "title", "description", "minimum", "maximum"],
  boolean: ["type", "title", "description", "default"],
};

/**
 * Fits a form to revisions before 2025-11-25: titled single-selects become enum with
 * enumNames, defaults stay only on booleans, and multi-selects (which those revisions
 * cannot express) are refused.
 */
export function fitFormToRevision(schema: RequestedSchema, rules: RevisionRules): RequestedSchema {
  if (rules.richElicitationForms) return schema;
  const properties: Record<string, Field> = {};
  for (const [name, field] of Object.entries(schema.properties) as [string, Field][]) {
    const type = field.type as string;
    if (type === "array") {
      throw new TypeError(
        `Elicitation field "${name}" is a multi-select, which needs protocol revision 2025-11-25 (the client negotiated ${rules.revision})`,
      );
    }
    let source = field;
    const options = field.oneOf ?? field.anyOf;
    if (type === "string" && Array.isArray(options)) {
      const titled = options as { const?: unknown; title?: unknown }[];
      source = {
        ...field,
        enum: titled.map((o) => String(o.const)),
        enumNames: titled.map((o) => String(o.title ?? o.const)),
      };
    }
    const keep = KEEP_2025_06[type] ?? [];
    properties[name] = Object.fromEntries(Object.entries(source).filter(([key]) => keep.includes(key)));
  }
  return { ...schema, properties };
}
