export {
  type Infer,
  isStandardSchema,
  type SchemaInput,
  type StandardJSONSchemaV1,
  type StandardSchemaV1,
  standardToJsonSchema,
} from "./standard.js";
export { type CompiledSchema, compileJsonSchema, compileSchema, type Validation, type Validator } from "./validator.js";
export { type JsonSchemaValidator, jsonSchemaValidatorInUse, setJsonSchemaValidator } from "./validator-choice.js";
