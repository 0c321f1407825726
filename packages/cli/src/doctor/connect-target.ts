import type { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { doctorClient } from "./client.js";
import { printable, tail } from "./printable.js";
import { observedStdio } from "./stdio/observed-stdio.js";
import type { DoctorTarget } from "./target.js";
import { within } from "./within.js";

/** A client connected to a target, and how to let go of it. */
export interface Connected {
  client: Client;
  close(): Promise<void>;
}

/**
 * Connects the doctor's client to a target, without the checks: what `mcpkit lint` reads
 * the lists through. No sign-in is started (a protected server takes --header). A failure
 * says why, with the end of a stdio server's stderr.
 */
export async function connectTarget(target: DoctorTarget, timeoutMs: number): Promise<Connected> {
  const client = doctorClient(timeoutMs);
  if (target.kind === "http") {
    const transport = streamableHttpClientTransport(new URL(target.url), {
      headers: target.headers,
      standaloneStream: false,
      onError: () => {},
    });
    try {
      await within(client.connect(transport), timeoutMs);
    } catch (error) {
      await transport.close().catch(() => undefined);
      throw error;
    }
    return { client, close: () => client.close() };
  }
  const { transport, observation } = observedStdio(target);
  const close = async () => {
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
  };
  try {
    await within(client.connect(transport), timeoutMs);
  } catch (error) {
    await close();
    const stderr = observation.stderr.trim() ? `; its stderr ends:\n${printable(tail(observation.stderr, 5))}` : "";
    throw new Error(`${(error as Error).message}${stderr}`);
  }
  return { client, close };
}
