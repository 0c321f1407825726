import { invalidParams } from "../../../jsonrpc/errors.js";
import type { JsonObject } from "../../../jsonrpc/types.js";
import { type Completer, toCompletion } from "../../registry/completion.js";
import { guard } from "../authorization.js";
import type { Call, MethodTable } from "../call.js";

/** server/utilities/completion */
export const completionMethods: MethodTable = {
  "completion/complete": {
    capability: (caps) => caps.completions,
    handler: complete,
  },
};

async function complete(params: JsonObject, call: Call): Promise<JsonObject> {
  const ref = params.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
  const argument = params.argument as { name?: unknown; value?: unknown } | undefined;
  if (typeof argument?.name !== "string" || typeof argument.value !== "string")
    throw invalidParams('completion/complete needs "argument" with string "name" and "value"');
  const context = params.context as { arguments?: Record<string, string> } | undefined;

  let completer: Completer | undefined;
  if (ref?.type === "ref/prompt" && typeof ref.name === "string") {
    const name = ref.name;
    const prompt = guard(call.server.prompts.get(name), call, `prompt ${name}`, () =>
      invalidParams(`Unknown prompt: ${name}`),
    );
    completer = prompt.complete[argument.name];
  } else if (ref?.type === "ref/resource" && typeof ref.uri === "string") {
    const uri = ref.uri;
    const template = call.server.templates.get(uri);
    // A static resource's URI is a template without variables: nothing to complete.
    guard(template ?? call.server.resources.get(uri), call, `resource ${uri}`, () =>
      invalidParams(`Unknown resource template: ${uri}`),
    );
    completer = template?.complete[argument.name];
  } else {
    throw invalidParams('completion/complete needs "ref" of type ref/prompt (with name) or ref/resource (with uri)');
  }
  if (!completer) return { completion: { values: [], total: 0, hasMore: false } };
  const answer = await completer(argument.value, {
    arguments: context?.arguments ?? {},
    ctx: call.context(),
  });
  return { completion: toCompletion(answer) };
}
