import {
  EXCHANGE,
  type ExchangeHandler,
  exchange,
  type FetchHandler,
  fromWebRequest,
  type HttpRequest,
  type MaybeReply,
  REPORT_ERROR,
  type ReportingHandler,
  reportHttpError,
  toResponse,
} from "./exchange.js";

/**
 * Several handlers on one server, chosen by path: `pick` names the handler for a path, or
 * none for a 404 with `notFound`'s text. mcpkit's handlers stay on the Node adapter's
 * direct path behind it.
 */
export function routeByPath(
  pick: (path: string) => FetchHandler | undefined,
  notFound = "Not found",
): FetchHandler & ExchangeHandler & ReportingHandler {
  const serve = (request: HttpRequest): MaybeReply => {
    const handler = pick(request.path);
    if (handler) return exchange(handler, request);
    return { status: 404, headers: { "content-type": "text/plain; charset=utf-8" }, body: notFound };
  };
  return {
    async fetch(request, info) {
      return toResponse(await serve(fromWebRequest(request, info)));
    },
    [EXCHANGE]: serve,
    // A failure the adapter met serving a request belongs to the handler that served it.
    [REPORT_ERROR]: (error, request) => reportHttpError((request && pick(request.path)) ?? {}, error, request),
  };
}
