import { Connection } from "../connection/connection.js";
import type { JsonRpcNotification } from "../jsonrpc/types.js";
import type { RevisionRules } from "../protocol/revisions.js";
import { LATEST_LEGACY_REVISION } from "../protocol/versions.js";
import type { Transport } from "../transports/transport.js";
import type { ClientEra, EraHost } from "./eras/client-era.js";
import { detectEra } from "./eras/detect.js";
import { envelopeFor, withEnvelope } from "./eras/envelope.js";
import { LegacyEra } from "./eras/legacy-era.js";
import { ModernEra } from "./eras/modern-era.js";

const DEFAULT_DISCOVER_TIMEOUT_MS = 3000;

/** What the Client hands over to connect: its side of EraHost, and where incoming traffic goes. */
export interface ConnectParts extends Omit<EraHost, "connection" | "http"> {
  onNotification(notification: JsonRpcNotification): void;
  /** The rules of the era once known (batches, the id of unreadable errors). */
  rules(): RevisionRules | undefined;
  onClose(reason?: Error): void;
}

/**
 * Starts the transport and finds the server's era (basic/versioning §Backward
 * Compatibility): a `server/discover` probe, judged as the transport's binding says, then
 * the handshake for a legacy server. Closes the connection again if that fails.
 */
export async function connectEra(
  transport: Transport,
  parts: ConnectParts,
): Promise<{ host: EraHost; era: ClientEra }> {
  const { options } = parts;
  const connection = new Connection(transport, {
    onRequest: (inbound) =>
      parts.onRequest(inbound.method, inbound.params ?? {}, {
        get signal() {
          return inbound.signal;
        },
        requestId: inbound.id,
      }),
    onNotification: (n) => parts.onNotification(n),
    batchesAllowed: () => parts.rules()?.batches ?? false,
    unreadableIdNull: () => parts.rules()?.unreadableIdNull ?? false,
    onError: options.onError,
    onClose: (reason) => parts.onClose(reason),
    timeoutMs: options.timeoutMs,
  });
  const http = transport.binding === "streamable-http";
  const host: EraHost = { ...parts, connection, http };
  await connection.start();
  try {
    const decision = await detectEra({
      http,
      // Era detection is defined per binding (HTTP, stdio); any other transport (an
      // in-memory pair, a custom one) uses the handshake unless a modern revision is asked for.
      forced:
        options.protocolVersion ??
        (transport.binding === "streamable-http" || transport.binding === "stdio" ? undefined : LATEST_LEGACY_REVISION),
      isClosed: () => connection.isClosed,
      probe: (version) =>
        connection.request("server/discover", withEnvelope(undefined, envelopeFor(host, version, undefined)), {
          timeoutMs: http ? undefined : (options.discoverTimeoutMs ?? DEFAULT_DISCOVER_TIMEOUT_MS),
        }),
    });
    const era =
      decision.era === "legacy"
        ? await LegacyEra.connect(host, decision.version)
        : new ModernEra(host, decision.version, decision.discover);
    return { host, era };
  } catch (error) {
    await connection.close();
    throw error;
  }
}
