import type { ClientMetadataOptions } from "./client-metadata.js";
import { ClientMetadataError, fetchClientMetadata, isMetadataDocumentId } from "./client-metadata.js";
import type { ClientRecord } from "./clients.js";
import type { Core } from "./core.js";
import type { AuthorizationStore } from "./store.js";

/** A client id could not be resolved; the message says why, for the person or developer. */
export class UnknownClientError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnknownClientError";
  }
}

const minutes = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} minutes` : `${Math.ceil(ms / 1000)} seconds`);

/** Concurrent requests for one metadata document share one fetch. */
const fetching = new WeakMap<Core, Map<string, Promise<ClientRecord>>>();

/**
 * The client an id names: configured, registered (in the store), or, for an https URL,
 * the client ID metadata document it points to (fetched once, then cached in the store).
 */
export async function findClient(core: Core, clientId: string): Promise<ClientRecord> {
  const configured = core.staticClients.get(clientId);
  if (configured) return configured;
  if (clientId.length > 2048) throw new UnknownClientError("The client id is too long");
  const stored = await core.store.get("client", clientId);
  if (stored) return JSON.parse(stored) as ClientRecord;
  if (!core.clientMetadata || !isMetadataDocumentId(clientId, core.development))
    throw new UnknownClientError(
      `The client ${clientId} is not registered here${core.clientMetadata ? " (a client ID metadata document is named by an https URL with a path)" : ""}.${core.registration ? ` A registration no token was issued to is kept ${minutes(core.ttl.unusedClientMs)}: the application must register again.` : ""}`,
    );
  let pending = fetching.get(core);
  if (!pending) {
    pending = new Map();
    fetching.set(core, pending);
  }
  let found = pending.get(clientId);
  if (!found) {
    found = (async () => {
      try {
        const { client, ttlMs } = await fetchClientMetadata(
          clientId,
          core.clientMetadata ?? {},
          core.development,
          core.appSchemes,
        );
        if (await admitDocument(core.store, core.clientMetadata?.maxCached, clientId, ttlMs))
          await core.store.put("client", clientId, JSON.stringify(client), ttlMs);
        return client;
      } catch (error) {
        if (error instanceof ClientMetadataError) throw new UnknownClientError(error.message);
        throw error;
      }
    })().finally(() => pending?.delete(clientId));
    pending.set(clientId, found);
  }
  return found;
}

/** Counts a fetched client metadata document among those kept (1000 by default); false when as many are kept (it is then not). */
async function admitDocument(
  store: AuthorizationStore,
  maxCached: ClientMetadataOptions["maxCached"],
  clientId: string,
  ttlMs: number,
): Promise<boolean> {
  if (maxCached === false) return true;
  return (await store.admit(clientId, [{ group: "documents", max: maxCached ?? 1000, ttlMs }])).admitted;
}
