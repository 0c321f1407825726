import { invalidParams } from "../../../jsonrpc/errors.js";
import type { JsonObject } from "../../../jsonrpc/types.js";
import type { CompleteResult } from "../../../protocol/types/features.js";
import { type Completer, toCompletion } from "../../registry/completer.js";
import { guard } from "../authorization.js";
import { type Call, type Methods, method } from "../method.js";

/** completion/complete's params as read: the argument is checked; the reference is checked against what it names. */
interface CompleteParams {
  ref: { type?: unknown; name?: unknown; uri?: unknown } | undefined;
  argument: { name: string; value: string };
  context: { arguments?: Record<string, string> } | undefined;
}

/** server/utilities/completion */
export const completionMethods: Methods<"completion/complete"> = {
  "completion/complete": method({
    capability: (caps) => caps.completions,
    params: completeParams,
    handler: complete,
  }),
};

function completeParams(params: JsonObject): CompleteParams {
  const argument = params.argument as { name?: unknown; value?: unknown } | undefined;
  if (typeof argument?.name !== "string" || typeof argument.value !== "string")
    throw invalidParams('completion/complete needs "argument" with string "name" and "value"');
  return {
    ref: params.ref as CompleteParams["ref"],
    argument: { name: argument.name, value: argument.value },
    context: params.context as CompleteParams["context"],
  };
}

const unknownPrompt = (name: string) => invalidParams(`Unknown prompt: ${name}`);
const unknownTemplate = (uri: string) => invalidParams(`Unknown resource template: ${uri}`);

async function complete({ ref, argument, context }: CompleteParams, call: Call): Promise<CompleteResult> {
  let completer: Completer | undefined;
  if (ref?.type === "ref/prompt" && typeof ref.name === "string") {
    const name = ref.name;
    const prompt = guard(call.server.prompts.get(name), call, "prompt", name, unknownPrompt);
    completer = prompt.complete[argument.name];
  } else if (ref?.type === "ref/resource" && typeof ref.uri === "string") {
    const uri = ref.uri;
    const template = call.server.templates.get(uri);
    // A static resource's URI is a template without variables: nothing to complete.
    guard(template ?? call.server.resources.get(uri), call, "resource", uri, unknownTemplate);
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
