import { parseArgumentWords, promptArguments } from "../arguments.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { messageLines } from "../format/content.js";
import { type Action, interruptible, suggest } from "./session.js";

/** `prompt NAME key=value…`: prompts/get with string arguments, checked against the prompt's own list. */
export const getPrompt: Action = (args) => {
  const [name, ...rest] = args;
  if (!name) throw new UsageError("prompt needs a prompt name: prompt NAME key=value…");
  const words = parseArgumentWords(rest);
  return async ({ client, out, signal, onprogress, endProgress }) => {
    const prompts = await interruptible(client.prompts(), signal);
    const prompt = prompts.find((p) => p.name === name);
    if (!prompt)
      throw new UsageError(
        `The server has no prompt "${name}"${suggest(
          name,
          prompts.map((p) => p.name),
          "prompts",
        )}`,
      );
    const result = await client.getPrompt(name, promptArguments(prompt, words), { signal, onprogress });
    endProgress();
    if (out.json) out.data(result);
    else {
      if (result.description) out.line(out.c.dim(result.description));
      for (const line of messageLines(result.messages, out.c, out.save)) out.line(line);
    }
    return EXIT.ok;
  };
};
