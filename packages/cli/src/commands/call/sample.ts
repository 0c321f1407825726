import { McpError } from "mcpkit";
import type { ClientHandlers } from "mcpkit/client";
import { messageLines } from "./format/content.js";
import type { Colors } from "./output.js";
import { type Ask, isPromptExit } from "./terminal.js";

/** client/sampling §Error Handling: the code a client answers when its user declines. */
export const SAMPLING_REJECTED = -1;

/**
 * The answer when the person declines. On a handshake-era server it goes back as the
 * JSON-RPC error; on 2026-07-28 there is nothing to send back (sampling arrives as an input
 * request of the call), so the call itself fails with it.
 */
export class SamplingDeclined extends McpError {
  constructor() {
    super(SAMPLING_REJECTED, "User rejected sampling request");
  }
}

const rejected = () => new SamplingDeclined();

/**
 * client/sampling answered by the person at the terminal, who plays the model: they see
 * what the server would send to an LLM, then type the reply or decline (Ctrl+C declines too).
 */
export function sampleAtTerminal(ask: Ask, c: Colors): NonNullable<ClientHandlers["sampling"]> {
  return (params, ctx) =>
    ask(async (context) => {
      const prompts = await import("@inquirer/prompts");
      const lines = [
        "",
        c.bold(c.magenta("The server asks your model for a reply (sampling):")),
        ...(params.systemPrompt ? [`${c.bold("system:")} ${params.systemPrompt}`] : []),
        ...messageLines(params.messages, c),
      ];
      const about = [`at most ${params.maxTokens} tokens`];
      const hints = params.modelPreferences?.hints?.map((h) => h.name).filter(Boolean);
      if (hints?.length) about.push(`model hints: ${hints.join(", ")}`);
      if (params.tools?.length) about.push(`tools offered: ${params.tools.map((t) => t.name).join(", ")}`);
      lines.push(c.dim(about.join(" · ")));
      process.stderr.write(`${lines.map((line) => (line ? `  ${line}` : line)).join("\n")}\n`);
      const reply = await prompts.select(
        {
          message: "Reply as the model?",
          choices: [
            { value: true, name: "Reply" },
            { value: false, name: "Decline" },
          ],
        },
        context,
      );
      if (!reply) throw rejected();
      const text = await prompts.input({ message: "Reply:", required: true }, context);
      return {
        role: "assistant" as const,
        content: { type: "text" as const, text },
        model: "mcpkit-call (typed at the terminal)",
        stopReason: "endTurn",
      };
    }, ctx.signal).catch((error: unknown) => {
      throw isPromptExit(error) ? rejected() : error;
    });
}
