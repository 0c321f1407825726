/**
 * Whether a JSON Schema is valid under its dialect (basic §JSON Schema Usage: the one its
 * `$schema` declares, 2020-12 when it declares none), nested subschemas included: Ajv's
 * meta-schema validation, then a compile, which finds what the meta-schema cannot (a
 * `$ref` that resolves nowhere).
 */

import type { Ajv } from "ajv";

/** What lint uses of an Ajv of any dialect (each is a subclass of Ajv's core). */
type MetaAjv = Pick<Ajv, "validateSchema" | "errors" | "compile">;

export type LintDialect = "2020-12" | "2019-09" | "draft-07";

const DIALECTS: [RegExp, LintDialect][] = [
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, "2020-12"],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, "2019-09"],
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, "draft-07"],
];

/** The dialect a schema declares: 2020-12 when none; undefined for one lint cannot check. */
export function declaredDialect(schema: Record<string, unknown>): LintDialect | undefined {
  if (schema.$schema === undefined) return "2020-12";
  if (typeof schema.$schema !== "string") return undefined;
  const uri = schema.$schema;
  return DIALECTS.find(([pattern]) => pattern.test(uri))?.[1];
}

const instances = new Map<LintDialect, Promise<MetaAjv>>();

function ajvFor(dialect: LintDialect): Promise<MetaAjv> {
  let ajv = instances.get(dialect);
  if (!ajv) {
    ajv = (async () => {
      const [module, formats] = await Promise.all([
        dialect === "draft-07"
          ? import("ajv")
          : dialect === "2019-09"
            ? import("ajv/dist/2019.js")
            : import("ajv/dist/2020.js"),
        import("ajv-formats"),
      ]);
      // CommonJS: the exports object is the default import, and names itself `default` too.
      const AjvClass = module.default.default;
      // strict: false keeps unknown keywords legal (x-mcp-header, enumNames: extensions, not errors);
      // the meta-schema is checked by validateSchema, so compile does not check it again; an
      // unknown format is the schema's business, not something to print.
      const ajv = new AjvClass({
        strict: false,
        allErrors: true,
        addUsedSchema: false,
        validateSchema: false,
        logger: false,
      });
      formats.default.default(ajv);
      return ajv;
    })();
    instances.set(dialect, ajv);
  }
  return ajv;
}

/** At most this many places are named in one problem. */
const MAX_PLACES = 5;

/** What is wrong with `schema` under `dialect`, or undefined when it is valid. */
export async function schemaInvalidity(
  schema: Record<string, unknown>,
  dialect: LintDialect,
): Promise<string | undefined> {
  const ajv = await ajvFor(dialect);
  // The dialect is chosen above; the instance checks against its own meta-schema.
  const { $schema: _declared, ...body } = schema;
  let valid: boolean;
  try {
    valid = ajv.validateSchema(body) === true;
  } catch (error) {
    // Ajv walks a schema recursively: one nested a thousand levels deep exhausts the stack.
    return `it is nested too deeply to check, as a client's validator would be (${(error as Error).message})`;
  }
  if (!valid) {
    // Ajv reports a keyword's failure once per branch of the meta-schema: keep the first per place.
    const byPlace = new Map<string, string>();
    for (const error of ajv.errors ?? []) {
      const place = error.instancePath || "/";
      if (byPlace.has(place)) continue;
      const allowed = error.params?.allowedValues;
      byPlace.set(
        place,
        `${place}: ${error.message ?? "is invalid"}${Array.isArray(allowed) ? ` (${allowed.join(", ")})` : ""}`,
      );
    }
    const places = [...byPlace.values()];
    const more = places.length > MAX_PLACES ? ` (and ${places.length - MAX_PLACES} more)` : "";
    return `${places.slice(0, MAX_PLACES).join("; ")}${more}`;
  }
  try {
    ajv.compile(body);
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}
