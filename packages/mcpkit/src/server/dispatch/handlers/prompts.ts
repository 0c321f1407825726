import { invalidParams } from "../../../jsonrpc/errors.js";
import type { JsonObject } from "../../../jsonrpc/types.js";
import type { GetPromptResult } from "../../../protocol/types/features.js";
import { type PromptEntry, promptArgumentsError, toPromptResult } from "../../registry/prompt.js";
import { guard } from "../authorization.js";
import { encodeContent } from "../encode.js";
import { listPage } from "../list-page.js";
import { type Call, type Methods, method } from "../method.js";
import { ElicitationAnswerError } from "../request-context.js";

/** The params of a method about one named definition (a prompt, a tool): its name. */
type NamedParams = JsonObject & { name: string };

/** server/prompts */
export const promptMethods: Methods<"prompts/list" | "prompts/get"> = {
  "prompts/list": method({
    capability: (caps) => caps.prompts,
    handler: (params, call) => listPage(call.server.prompts, params, call, (prompts) => ({ prompts })),
  }),
  "prompts/get": method({
    capability: (caps) => caps.prompts,
    params: (params) => {
      if (typeof params.name !== "string") throw invalidParams('prompts/get needs a string "name"');
      return params as NamedParams;
    },
    handler: getPrompt,
  }),
};

const unknownPrompt = (name: string) => invalidParams(`Unknown prompt: ${name}`);

async function getPrompt(params: NamedParams, call: Call): Promise<GetPromptResult> {
  const { name } = params;
  const prompt = guard(call.server.prompts.get(name), call, "prompt", name, unknownPrompt);
  const given = params.arguments ?? {};
  if (typeof given !== "object" || given === null || Array.isArray(given))
    throw promptArgumentsError(name, '"arguments" must be an object of strings');
  const checked = await prompt.validate(given);
  if (!checked.ok) throw promptArgumentsError(name, checked.message);
  const result = toPromptResult(await runPrompt(prompt, checked.value as Record<string, string>, call));
  const rules = call.peer.rules;
  const messages = result.messages.map((m) => {
    const content = encodeContent(m.content, rules);
    return content === m.content ? m : { ...m, content };
  });
  return { ...result, messages };
}

/**
 * The prompt's handler. An elicitation answer that fails its schema is the client's error,
 * told as a tool tells it (with the reason), not as "Internal error": -32602, as for the
 * request's own arguments (on 2026-07-28 the answer is in the request's inputResponses).
 */
async function runPrompt(prompt: PromptEntry, args: Record<string, string>, call: Call) {
  try {
    return await prompt.handler(args, call.context());
  } catch (error) {
    if (error instanceof ElicitationAnswerError) throw invalidParams(error.message);
    throw error;
  }
}
