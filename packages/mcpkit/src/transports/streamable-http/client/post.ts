import type { JsonRpcErrorObject, JsonRpcMessage } from "../../../jsonrpc/types.js";
import { discard, mediaType, readErrorText, readText } from "../../http/client/body.js";
import type { ReconnectOptions } from "../../http/client/http-client-options.js";
import {
  asError,
  describeTarget,
  httpError,
  isModernRefusal,
  networkError,
  protocolError,
  sessionExpired,
} from "../../http/client/http-errors.js";
import { isInitialize, requestIds } from "../../http/client/messages.js";
import { followStream } from "./event-stream.js";
import { modernVersion, requestHeaders } from "./request-headers.js";
import type { HttpSession } from "./session.js";

/** transports §Sending Messages item 2: both kinds of answer are acceptable. */
const ACCEPT = "application/json, text/event-stream";

/** transports §Session Management item 1: visible ASCII only. */
const VALID_SESSION_ID = /^[\x21-\x7e]+$/;

/** Error bodies are read only this far, for the message. */

export interface PostOptions {
  reconnect: Required<ReconnectOptions>;
  /** Statuses for which the caller would rather fall back than fail (the first initialize). */
  fallbackOn?: readonly number[];
  /** Called once the request is on its way. */
  sent(): void;
  /** Called once the server has the message (headers back, or the request failed). */
  delivered(): void;
  /** Extra headers for this message (`Mcp-Param-*`), encoded here for the wire. */
  headers?: Record<string, string>;
}

/**
 * Sends one message (or batch) as a POST and hands up whatever answers it (transports
 * §Sending Messages): 202 for notifications and responses; for requests one JSON body or
 * an SSE stream carrying the responses and the messages related to them, resumed if it
 * drops. A request the server cannot answer gets a JSON-RPC error response in its place.
 * Resolves with the status when `fallbackOn` matched, and nothing was handed up.
 */
export async function post(
  session: HttpSession,
  message: JsonRpcMessage | JsonRpcMessage[],
  options: PostOptions,
): Promise<number | undefined> {
  const target = describeTarget("POST", session.url);
  const ids = requestIds(message);
  const stream = ids.length > 0 ? session.newStream(ids, modernVersion(message) === undefined) : undefined;
  const signal = stream?.signal ?? session.closed;
  const report = (error: JsonRpcErrorObject) => {
    if (stream) session.fail([...(stream.pending ?? [])], error);
    else session.options.onError(asError(error));
  };
  const sentSession = session.sessionId;

  let response: Response;
  try {
    const headers = await session.headers({
      ...requestHeaders(message, options.headers),
      accept: ACCEPT,
      "content-type": "application/json",
    });
    const answer = session.options.fetch(session.url, {
      method: "POST",
      headers,
      body: JSON.stringify(message),
      signal,
    });
    options.sent();
    response = await answer;
  } catch (error) {
    options.sent();
    options.delivered();
    // Aborted: the transport closed, or every request on it was cancelled.
    if (!signal.aborted) report(networkError(target, error));
    return undefined;
  }

  if (options.fallbackOn?.includes(response.status)) {
    // A modern server refusing an initialize (it serves no handshake revision) says so
    // with a 400 and its error: that is reported, not taken for an older server.
    const body = response.status === 400 ? await readErrorText(response) : undefined;
    if (body === undefined || !isModernRefusal(body)) {
      if (body === undefined) await discard(response);
      return response.status;
    }
    options.delivered();
    report(httpError(target, response, body));
    return undefined;
  }
  // transports §Session Management item 1: the session id comes with the InitializeResult.
  const assigned = response.headers.get("mcp-session-id");
  if (response.ok && assigned !== null && isInitialize(message) && VALID_SESSION_ID.test(assigned))
    session.sessionId = assigned;
  options.delivered();

  if (!response.ok) {
    const body = await readErrorText(response);
    if (response.status === 404 && sentSession !== undefined) {
      if (session.sessionId === sentSession) session.expire();
      report(sessionExpired());
    } else {
      report(httpError(target, response, body));
    }
    return undefined;
  }

  if (!stream) {
    await discard(response);
    return undefined;
  }
  const type = mediaType(response);
  if (type === "text/event-stream" && response.body) {
    const end = await followStream(session, stream, response, options.reconnect);
    if (end) report(end.error);
    return undefined;
  }
  if (type === "application/json") {
    let value: unknown;
    try {
      value = JSON.parse(await readText(response, session.options.maxMessageBytes));
    } catch (error) {
      const why = error instanceof SyntaxError ? "a body that is not valid JSON" : (error as Error).message;
      report(protocolError(`${target} answered with ${why}`));
      return undefined;
    }
    session.message(value);
    if (stream.pending?.size)
      report(protocolError(`${target} answered without a response to every request it carried`));
    return undefined;
  }
  await discard(response);
  report(
    protocolError(
      response.status === 202
        ? `${target} accepted a request (202) without answering it`
        : `${target} answered ${type || "without a content type"}, neither JSON nor an event stream`,
    ),
  );
  return undefined;
}
