export { type JsonSchemaValidator, jsonSchemaValidatorInUse, setJsonSchemaValidator } from "./json-schema-check.js";
export {
  type Infer,
  isStandardSchema,
  type SchemaInput,
  type StandardJSONSchemaV1,
  type StandardSchemaV1,
  standardToJsonSchema,
} from "./standard.js";
export { type CompiledSchema, compileJsonSchema, compileSchema, type Validation, type Validator } from "./validator.js";
