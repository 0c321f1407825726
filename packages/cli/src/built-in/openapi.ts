import { openapiOptions } from "@mcpkit/servers/openapi/options";
import { UsageError } from "@mcpkit/servers/options";
import { defineFlags } from "./served.js";

/** `mcpkit serve openapi <file-or-url> --base-url URL`: an HTTP API's operations as tools. */
export const flags = defineFlags({
  description: "an HTTP API described by an OpenAPI 3.0/3.1 document (a file or URL), one tool per operation",
  operands: "the OpenAPI document: a file (JSON or YAML) or an http(s) URL",
  exposes: "the API, with the credentials given here",
  cluster: true,
  options: openapiOptions,
  async create(values, { operands, shared }) {
    const [document, ...rest] = operands;
    if (!document) throw new UsageError("serve openapi needs the document: a file or an http(s) URL");
    if (rest.length) throw new UsageError(`serve openapi takes one document, not also ${rest.join(" ")}`);
    const { openapiServer } = await import("@mcpkit/servers/openapi");
    return openapiServer({ ...values, document, serverOptions: shared });
  },
});
