import { invalidParams } from "../../../jsonrpc/errors.js";
import type { JsonObject } from "../../../jsonrpc/types.js";
import { promptArgumentsError, toPromptResult } from "../../registry/prompt.js";
import { guard } from "../authorization.js";
import type { Call, MethodTable } from "../call.js";
import { encodeContent } from "../encode.js";
import { listPage } from "../list-page.js";

/** server/prompts */
export const promptMethods: MethodTable = {
  "prompts/list": {
    capability: (caps) => caps.prompts,
    handler: (params, call) => listPage(call.server.prompts, params, call, "prompts"),
  },
  "prompts/get": {
    capability: (caps) => caps.prompts,
    handler: getPrompt,
  },
};

async function getPrompt(params: JsonObject, call: Call): Promise<JsonObject> {
  const { name } = params;
  if (typeof name !== "string") throw invalidParams('prompts/get needs a string "name"');
  const prompt = guard(call.server.prompts.get(name), call, `prompt ${name}`, () =>
    invalidParams(`Unknown prompt: ${name}`),
  );
  const given = params.arguments ?? {};
  if (typeof given !== "object" || given === null || Array.isArray(given))
    throw promptArgumentsError(name, '"arguments" must be an object of strings');
  const checked = await prompt.validate(given);
  if (!checked.ok) throw promptArgumentsError(name, checked.message);
  const result = toPromptResult(await prompt.handler(checked.value as Record<string, string>, call.context()));
  const rules = call.peer.rules;
  const messages = result.messages.map((m) => {
    const content = encodeContent(m.content, rules);
    return content === m.content ? m : { ...m, content };
  });
  return { ...result, messages } as unknown as JsonObject;
}
