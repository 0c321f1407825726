import type { JsonSchema } from "../protocol/types/features.js";
import type { JsonSchemaCheck, JsonSchemaDialect } from "./json-schema-check.js";

type AjvError = { instancePath: string; message?: string; params?: Record<string, unknown> };
type AjvInstance = { compile(schema: object): ((value: unknown) => boolean) & { errors?: AjvError[] | null } };

const ajvByDialect = new Map<JsonSchemaDialect, Promise<AjvInstance>>();

/** One Ajv per dialect, loaded on first use: a server declaring only Standard Schemas never pays for it. */
function ajvFor(dialect: JsonSchemaDialect): Promise<AjvInstance> {
  let ajv = ajvByDialect.get(dialect);
  if (!ajv) {
    ajv = loadAjv(dialect);
    ajvByDialect.set(dialect, ajv);
  }
  return ajv;
}

async function loadAjv(dialect: JsonSchemaDialect): Promise<AjvInstance> {
  const [module, formats] = await Promise.all([
    dialect === "draft-07"
      ? import("ajv")
      : dialect === "2019-09"
        ? import("ajv/dist/2019.js")
        : import("ajv/dist/2020.js"),
    import("ajv-formats"),
  ]);
  // CommonJS modules: their exports object is the default import, and names itself `default` too.
  const Ajv = module.default.default;
  // strict: false keeps unknown keywords (x-mcp-header, enumNames) legal; addUsedSchema: false
  // lets two tools share an $id.
  const ajv = new Ajv({ strict: false, addUsedSchema: false, allErrors: false });
  formats.default.default(ajv);
  return ajv;
}

/** Compiles `schema` to JavaScript with Ajv: the fastest checks, where code generation is allowed. */
export async function ajvCheck(schema: JsonSchema, dialect: JsonSchemaDialect): Promise<JsonSchemaCheck> {
  const validate = (await ajvFor(dialect)).compile(schema);
  return (value) => {
    if (validate(value)) return undefined;
    const message = (validate.errors ?? [])
      .map((e) => {
        const where = e.instancePath ? e.instancePath.slice(1).replaceAll("/", ".") : "";
        const extra = e.params?.additionalProperty ? ` (${String(e.params.additionalProperty)})` : "";
        return `${where ? `${where}: ` : ""}${e.message ?? "is invalid"}${extra}`;
      })
      .join("; ");
    return message || "does not match the schema";
  };
}
