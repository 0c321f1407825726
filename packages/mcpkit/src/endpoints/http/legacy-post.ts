import { clientKey } from "../../connection/client-key.js";
import { respondTo } from "../../connection/error-answer.js";
import { InboundRequest } from "../../connection/inbound-request.js";
import { ErrorCode } from "../../jsonrpc/errors.js";
import { failure, messageProblem, notification, readableId } from "../../jsonrpc/message.js";
import type { JsonRpcMessage, JsonRpcRequest, JsonRpcResponse, RequestId } from "../../jsonrpc/types.js";
import { revisionRules } from "../../protocol/revisions.js";
import { DEFAULT_NEGOTIATED_REVISION, isLegacyRevision, type LegacyRevision } from "../../protocol/versions.js";
import type { ServerDefinition } from "../../server/definition.js";
import { serveSessionless } from "../../server/eras/sessionless.js";
import { principalOf } from "../../server/principal.js";
import { type HttpReply, type HttpRequest, jsonReply, type MaybeReply } from "../../transports/http/exchange.js";
import { jsonRpcErrorReply } from "../../transports/http/responses.js";
import type { HttpSessionTransport } from "../../transports/streamable-http/server/session-transport.js";
import { SingleReply, type SingleReplyOptions } from "../../transports/streamable-http/server/single-reply.js";
import type { MessageInfo } from "../../transports/transport.js";
import { unsupportedLegacyVersion } from "./header-checks.js";
import type { RunningRequests } from "./running-requests.js";
import type { SessionTable } from "./session-table.js";
import { type ServeOne, SoloRequest } from "./solo-request.js";

export const SESSION_HEADER = "mcp-session-id";

export interface LegacyPostContext {
  server: ServerDefinition;
  /** Undefined when the endpoint keeps no sessions. */
  sessions: SessionTable | undefined;
  closing(): boolean;
  /** The Retry-After of a refusal for lack of sessions, s. */
  retryAfterSeconds: number;
  /** Asked before a session opens: a refusal is answered 503 (EndpointOptions.admitSession). */
  admitSession: (() => { message: string; retryAfterSeconds: number } | undefined) | undefined;
  /** How a POST served without a session is answered (one object per endpoint). */
  replies: SingleReplyOptions;
  /** The endpoint's requests answered on their own that are running. */
  running: RunningRequests;
}

/**
 * The legacy path of the MCP endpoint (2024-11-05 … 2025-11-25): `initialize` opens a
 * session, later POSTs name it in Mcp-Session-Id; without sessions, each POST is served
 * on its own under the revision its header names. A request on a session this node holds
 * is answered without a promise when its handler answers at once.
 */
export function handleLegacyPost(
  context: LegacyPostContext,
  request: HttpRequest,
  body: unknown,
  info: MessageInfo,
  sessionId: string | null,
  versionHeader: string | null,
): MaybeReply {
  // transports §Protocol Version Header: a version the era does not have is 400; none is the default.
  const version = versionHeader?.trim();
  if (version !== undefined && !isLegacyRevision(version)) return unsupportedLegacyVersion(version);
  const revision = version ?? DEFAULT_NEGOTIATED_REVISION;
  const batch = Array.isArray(body);
  let requestIds: readonly RequestId[];
  let initialize = false;
  if (batch) {
    if (body.length === 0) return jsonRpcErrorReply(400, ErrorCode.InvalidRequest, "Invalid request: empty batch");
    if (!revisionRules(revision).batches) return batchRefused(revision);
    const ids: RequestId[] = [];
    requestIds = ids;
    for (const m of body) {
      if (typeof m !== "object" || m === null || typeof m.method !== "string" || !("id" in m)) continue;
      if (typeof m.id === "string" || typeof m.id === "number") ids.push(m.id);
      if (m.method === "initialize") initialize = true;
    }
    if (initialize && body.length > 1) {
      return jsonRpcErrorReply(
        400,
        ErrorCode.InvalidRequest,
        "Invalid request: initialize must not be part of a batch",
      );
    }
  } else {
    const problem = messageProblem(body);
    if (problem) return jsonRpcErrorReply(400, ErrorCode.InvalidRequest, `Invalid request: ${problem}`);
    // A message without problems: a request when it has a method and an id.
    const message = body as JsonRpcMessage;
    requestIds = "method" in message && "id" in message ? [message.id] : NO_IDS;
    initialize = requestIds.length > 0 && (message as JsonRpcRequest).method === "initialize";
  }

  const { sessions } = context;
  if (!sessions) return serveWithoutSession(context, request, body, info, revision);
  if (sessions.unavailable) return storeUnavailable();
  const principal = principalIn(info);
  if (initialize && sessionId === null) return openSession(context, sessions, request, body, requestIds, info);
  if (sessionId === null) {
    return jsonRpcErrorReply(
      400,
      ErrorCode.InvalidRequest,
      "Bad Request: Mcp-Session-Id header is required (send initialize first)",
    );
  }
  const found = sessions.find(sessionId, principal);
  if (!(found instanceof Promise))
    return postTo({ context, sessions, sessionId, body, requestIds, info, revision }, found);
  return found.then((transport) =>
    postTo({ context, sessions, sessionId, body, requestIds, info, revision }, transport),
  );
}

/** A request or notification for a session: what `postTo` needs once the session is found. */
interface SessionPost {
  context: LegacyPostContext;
  sessions: SessionTable;
  sessionId: string;
  body: unknown;
  requestIds: readonly RequestId[];
  info: MessageInfo;
  revision: LegacyRevision;
}

function postTo(post: SessionPost, transport: HttpSessionTransport | undefined): MaybeReply {
  const { sessions, sessionId, body } = post;
  if (!transport) return sessions.unavailable ? storeUnavailable() : sessionNotFound();
  if (Array.isArray(body)) {
    // The session says the revision, whether or not the request repeats it in its header.
    const negotiated = sessions.revisionOf(sessionId) ?? post.revision;
    if (!revisionRules(negotiated).batches) return batchRefused(negotiated);
  }
  if (!sessions.clustered) return transport.post(body, post.requestIds, post.info);
  return postInCluster(post, transport);
}

/** On a cluster: answers to requests another node sent are passed there, and a changed session is saved. */
async function postInCluster(post: SessionPost, transport: HttpSessionTransport): Promise<HttpReply> {
  const { sessions, sessionId } = post;
  const local = await sessions.forward(sessionId, post.body);
  if (local === undefined) return { status: 202, headers: {} };
  const reply = await transport.post(local, post.requestIds, post.info);
  // The answer stands; a store that failed is reported, and the next change saves again.
  await sessions.persist(sessionId).catch((error) => post.context.server.onError(error));
  return reply;
}

/** initialize without a session id: a new session, if there is room for it. */
async function openSession(
  context: LegacyPostContext,
  sessions: SessionTable,
  request: HttpRequest,
  body: unknown,
  requestIds: readonly RequestId[],
  info: MessageInfo,
): Promise<HttpReply> {
  if (context.closing()) return jsonRpcErrorReply(503, ErrorCode.InternalError, "Server is shutting down");
  const principal = principalIn(info);
  const client = clientKey(principal, request.remoteAddress);
  const refusal = sessions.admit(client);
  if (refusal) {
    return jsonRpcErrorReply(503, ErrorCode.InternalError, `${refusal}; try again later`, {
      "retry-after": String(context.retryAfterSeconds),
    });
  }
  const busy = context.admitSession?.();
  if (busy)
    return jsonRpcErrorReply(503, ErrorCode.InternalError, busy.message, {
      "retry-after": String(busy.retryAfterSeconds),
    });
  const { id, transport } = await sessions.open(principal, client);
  const reply = await transport.post(body, requestIds, info);
  try {
    await sessions.persist(id);
  } catch (error) {
    // A node that cannot reach the shared store opens no session other nodes cannot serve.
    context.server.onError(error);
    await sessions.end(id).catch(context.server.onError);
    return storeUnavailable();
  }
  reply.headers[SESSION_HEADER] = id;
  return reply;
}

/** A notification's or response's: no request owed an answer (never written to). */
const NO_IDS: readonly RequestId[] = [];

/** transports/streamable-http §Sending Messages: one message per POST, else 400. */
const batchRefused = (revision: string) =>
  jsonRpcErrorReply(
    400,
    ErrorCode.InvalidRequest,
    `Invalid request: protocol revision ${revision} does not allow JSON-RPC batches; send one message per POST`,
  );

/** Each request of the POST served on its own; notifications and responses have nowhere to go. */
function serveWithoutSession(
  context: LegacyPostContext,
  request: HttpRequest,
  body: unknown,
  info: MessageInfo,
  revision: LegacyRevision,
): MaybeReply {
  if (Array.isArray(body)) return serveBatchWithoutSession(context, request, body, info, revision);
  // One message, checked already.
  const message = body as JsonRpcMessage;
  if (!("method" in message && "id" in message)) return { status: 202, headers: {} };
  const inbound = new InboundRequest(message as JsonRpcRequest, info);
  const solo = new SoloRequest(context.server, inbound, context.replies, closedStream, context.running);
  return solo.serve(request, serveLegacy, revision);
}

/** The legacy era serving a request without a session, under the revision its header names. */
const serveLegacy: ServeOne<LegacyRevision> = (server, inbound, notify, revision) =>
  serveSessionless(server, inbound, revision, notify);

const closedStream = () => new Error("The client closed the response stream");

/** A 2025-03-26 batch without a session: its requests answered together, as one array. */
function serveBatchWithoutSession(
  context: LegacyPostContext,
  request: HttpRequest,
  messages: unknown[],
  info: MessageInfo,
  revision: LegacyRevision,
): MaybeReply {
  const refused: JsonRpcResponse[] = [];
  const requests: JsonRpcRequest[] = [];
  for (const m of messages) {
    const problem = messageProblem(m);
    if (problem)
      refused.push(
        failure(readableId(m) ?? null, { code: ErrorCode.InvalidRequest, message: `Invalid request: ${problem}` }),
      );
    else if ("method" in (m as JsonRpcMessage) && "id" in (m as JsonRpcMessage)) requests.push(m as JsonRpcRequest);
  }
  if (requests.length === 0) {
    return refused.length === 0 ? { status: 202, headers: {} } : jsonReply(200, JSON.stringify(refused));
  }
  const inbounds = requests.map((r) => new InboundRequest(r, info));
  const reply = new SingleReply(
    context.replies,
    requests.map((r) => r.id),
  );
  reply.onAbandoned = {
    abandoned: () => {
      for (const inbound of inbounds) inbound.cancel(closedStream());
    },
  };
  request.onAbort(reply);
  for (const response of refused) reply.respond(response);
  const { server } = context;
  for (const inbound of inbounds) {
    const notify = (method: string, params: object) => reply.notify(notification(method, params));
    const forget = server.onClose((reason) => inbound.abandon(reason));
    respondTo(inbound, () => serveSessionless(server, inbound, revision, notify), server.onError)
      .then((response) => {
        forget();
        reply.respond(response);
      })
      .catch(server.onError);
  }
  return reply.reply();
}

/** Who is calling: the same rule that binds multi round-trip request state. */
const principalIn = (info: MessageInfo) => principalOf(info.auth);

/** 503: sessions live in a store this node cannot reach (another node may serve them). */
export const storeUnavailable = () =>
  jsonRpcErrorReply(503, ErrorCode.InternalError, "Session store unavailable: try again later", {
    "retry-after": "5",
  });

export const sessionNotFound = () =>
  jsonRpcErrorReply(404, ErrorCode.InvalidRequest, "Session not found: it ended or expired; initialize a new one");
