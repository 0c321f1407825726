import { invalidParams } from "../../../jsonrpc/errors.js";
import type { JsonObject } from "../../../jsonrpc/types.js";
import { type Completer, toCompletion } from "../../registry/completion.js";
import { visible } from "../authorization.js";
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
    const prompt = call.server.prompts.get(ref.name);
    if (!prompt || !visible(prompt, call)) throw invalidParams(`Unknown prompt: ${ref.name}`);
    completer = prompt.complete[argument.name];
  } else if (ref?.type === "ref/resource" && typeof ref.uri === "string") {
    const template = call.server.templates.get(ref.uri);
    const resource = call.server.resources.get(ref.uri);
    if (!(template ? visible(template, call) : resource && visible(resource, call)))
      throw invalidParams(`Unknown resource template: ${ref.uri}`);
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
