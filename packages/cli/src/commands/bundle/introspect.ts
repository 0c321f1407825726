import type { Implementation, Prompt, Tool } from "mcpkit";
import { Client } from "mcpkit/client";
import { stdioClientTransport } from "mcpkit/stdio";
import { VERSION } from "../../version.js";

/** What the built server says about itself when it runs. */
export interface Introspected {
  serverInfo: Implementation;
  tools: Tool[];
  prompts: (Prompt & { text: string })[];
}

/**
 * Starts the bundle's server as a client would (node ENTRY, over stdio, in the bundle's
 * folder) and reads its lists: the manifest lists what the server itself lists, and a server
 * that does not start stops the bundle here, not on a user's machine. A prompt's text is the
 * prompt got with each argument as `${arguments.NAME}`, the manifest's placeholder.
 */
export async function introspect(root: string, entry: string, args: string[]): Promise<Introspected> {
  const client = new Client({ name: "mcpkit-bundle", version: VERSION });
  const transport = stdioClientTransport({
    command: process.execPath,
    args: [entry, ...args],
    cwd: root,
    stderr: "pipe",
  });
  let stderr = "";
  try {
    const connecting = client.connect(transport);
    transport.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-8192);
    });
    const described = await connecting;
    const tools = described.capabilities.tools ? await client.tools() : [];
    const listed = described.capabilities.prompts ? await client.prompts() : [];
    const prompts = [];
    for (const prompt of listed) prompts.push({ ...prompt, text: await promptText(client, prompt) });
    return { serverInfo: described.serverInfo, tools, prompts };
  } catch (error) {
    throw new Error(
      `The bundled server did not start: ${(error as Error).message}${stderr ? `\n${stderr.trim().replace(/^/gm, "  ")}` : ""}`,
    );
  } finally {
    await client.close();
  }
}

async function promptText(client: Client, prompt: Prompt): Promise<string> {
  const args = Object.fromEntries((prompt.arguments ?? []).map((a) => [a.name, `\${arguments.${a.name}}`]));
  try {
    const got = await client.getPrompt(prompt.name, args);
    const texts = got.messages.flatMap((m) => (m.content.type === "text" ? [m.content.text] : []));
    if (texts.length > 0) return texts.join("\n\n");
  } catch {
    // A prompt whose arguments the placeholders do not satisfy: described instead.
  }
  return prompt.description ?? prompt.name;
}
