import type { ElicitParams, ElicitResult, ElicitValue } from "mcpkit";
import type { ClientHandlers } from "mcpkit/client";
import { askField } from "./elicit-fields.js";
import type { Colors } from "./output.js";
import { type Ask, isPromptExit } from "./terminal.js";

type Action = ElicitResult["action"];

/**
 * client/elicitation answered by the person at the terminal: the server's message, then
 * answer, decline or cancel; answering asks each field of the form in turn. Ctrl+C at any
 * question cancels (the user dismissed the request without choosing).
 */
export function elicitAtTerminal(ask: Ask, c: Colors): NonNullable<ClientHandlers["elicitation"]> {
  return (params, ctx) =>
    ask<ElicitResult>(async (context) => {
      const prompts = await import("@inquirer/prompts");
      process.stderr.write(`\n${c.bold(c.magenta("The server asks:"))} ${params.message}\n`);
      if (params.mode === "url") return askUrl(prompts, params, c, context);
      const action = await prompts.select<Action>(
        {
          message: "Answer it?",
          choices: [
            { value: "accept", name: "Answer" },
            { value: "decline", name: "Decline" },
            { value: "cancel", name: "Cancel" },
          ],
        },
        context,
      );
      if (action !== "accept") return { action };
      const schema = params.requestedSchema;
      const required = new Set(schema.required ?? []);
      const content: Record<string, ElicitValue> = {};
      for (const [name, field] of Object.entries(schema.properties ?? {})) {
        const value = await askField(prompts, name, field, required.has(name), context);
        if (value !== undefined) content[name] = value;
      }
      return { action: "accept" as const, content };
    }, ctx.signal).catch((error: unknown) => {
      if (isPromptExit(error)) return { action: "cancel" } as ElicitResult;
      throw error;
    });
}

/**
 * client/elicitation §URL Mode: the person opens the URL themselves; mcpkit only shows it
 * (and never follows it), so accepting means "I will go there".
 */
async function askUrl(
  prompts: typeof import("@inquirer/prompts"),
  params: Extract<ElicitParams, { mode: "url" }>,
  c: Colors,
  context: Parameters<typeof prompts.select>[1],
): Promise<ElicitResult> {
  process.stderr.write(`  ${c.underline(params.url)}\n`);
  const action = await prompts.select<Action>(
    {
      message: "Open this URL in your browser?",
      choices: [
        { value: "accept", name: "Yes, I will open it" },
        { value: "decline", name: "Decline" },
        { value: "cancel", name: "Cancel" },
      ],
    },
    context,
  );
  return { action };
}
