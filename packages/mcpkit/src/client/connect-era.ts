import { Connection } from "../connection/connection.js";
import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { JsonRpcNotification } from "../jsonrpc/types.js";
import type { RevisionRules } from "../protocol/revisions.js";
import { isLegacyRevision, isModernRevision, LATEST_LEGACY_REVISION, type Revision } from "../protocol/versions.js";
import type { Transport } from "../transports/transport.js";
import type { ClientEra, EraHost } from "./eras/client-era.js";
import { chooseVersion, detectEra, type EraDecision, supportedFrom } from "./eras/detect.js";
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
  const detect = (forced: Revision | undefined) =>
    detectEra({
      http,
      forced,
      isClosed: () => connection.isClosed,
      probe: (version) =>
        connection.request("server/discover", withEnvelope(undefined, envelopeFor(host, version, undefined)), {
          timeoutMs: http ? undefined : (options.discoverTimeoutMs ?? DEFAULT_DISCOVER_TIMEOUT_MS),
        }),
    });
  try {
    // Era detection is defined per binding (HTTP, stdio); any other transport (an
    // in-memory pair, a custom one) uses the handshake unless a modern revision is asked for.
    const decision = await detect(
      options.protocolVersion ??
        (transport.binding === "streamable-http" || transport.binding === "stdio" ? undefined : LATEST_LEGACY_REVISION),
    );
    const era =
      decision.era === "legacy"
        ? await handshakeOrMove(host, decision.version, options.protocolVersion, detect)
        : new ModernEra(host, decision.version, decision.discover);
    return { host, era };
  } catch (error) {
    await connection.close();
    throw error;
  }
}

/**
 * The handshake, asking for `version`. A server that refuses it with -32022 serves only the
 * revisions it lists (a server of modern revisions only: basic/versioning §Backward
 * Compatibility). Unless the user chose the revision (`chosen`), the client moves to one of
 * those it speaks (basic/versioning §Protocol Version Negotiation); if it speaks none, or the
 * user's is not among them, it says so plainly.
 */
async function handshakeOrMove(
  host: EraHost,
  version: string,
  chosen: Revision | undefined,
  detect: (forced: Revision) => Promise<EraDecision>,
): Promise<ClientEra> {
  try {
    return await LegacyEra.connect(host, version);
  } catch (error) {
    const supported = supportedFrom(error);
    if (!supported || host.connection.isClosed) throw error;
    const next = chooseVersion(supported, chosen);
    if (isModernRevision(next)) {
      const decision = await detect(next);
      if (decision.era === "modern") return new ModernEra(host, decision.version, decision.discover);
    } else if (isLegacyRevision(next) && next !== version) {
      return LegacyEra.connect(host, next);
    }
    const listed = supported.join(", ") || "(none listed)";
    const revisions = `protocol revision${supported.length === 1 ? "" : "s"} ${listed}`;
    throw new McpError(
      ErrorCode.UnsupportedProtocolVersion,
      chosen === undefined
        ? `The server supports only ${revisions}, which this client does not speak`
        : `The server supports only ${revisions}, not ${chosen}, the revision this client was told to use (protocolVersion)`,
      { supported },
    );
  }
}
