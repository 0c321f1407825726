import { Client } from "../../client/client.js";
import type { ClientOptions } from "../../client/client-options.js";
import type { ServerDescription } from "../../client/server-description.js";
import { type OpenOptions, openTransport } from "./open-transport.js";
import { describeTarget, type ResolvedTarget } from "./server-target.js";
import { type Taps, tapTransport } from "./tap.js";

export interface Connected {
  client: Client;
  description: ServerDescription;
  close(): Promise<void>;
}

export interface ConnectOptions extends OpenOptions {
  client?: Partial<ClientOptions>;
  taps?: Taps;
}

/** How long a failed command's stderr is awaited, to say why it failed. */
const STDERR_WAIT_MS = 1000;

/** A Client connected to the target; a failure says which server, why, and what it wrote to stderr. */
export async function connectClient(target: ResolvedTarget, options: ConnectOptions = {}): Promise<Connected> {
  const opened = await openTransport(target, options);
  const transport = options.taps ? tapTransport(opened.transport, options.taps) : opened.transport;
  const client = new Client({ name: "mcpkit-test", version: "0.0.0", ...options.client });
  let description: ServerDescription;
  try {
    description = await client.connect(transport);
  } catch (error) {
    await client.close();
    await opened.after();
    const stderr = await opened.stderr(STDERR_WAIT_MS);
    throw new Error(
      `Could not connect to ${describeTarget(target)}: ${(error as Error).message}` +
        (stderr ? `\nIts stderr ended with:\n${stderr}` : ""),
    );
  }
  return {
    client,
    description,
    close: async () => {
      await client.close();
      await opened.after();
    },
  };
}
