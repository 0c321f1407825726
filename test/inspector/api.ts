/**
 * The inspector driven over its own HTTP API, as its page drives it but without a browser:
 * the one-time token exchanged for the cookie and the page's key, `POST /api/<op>` with
 * the page's Origin and key, and the state the event stream reports. For tests about what
 * the inspector connects to, not about the page.
 */
export interface InspectorApi {
  call<T = Record<string, unknown>>(op: string, body?: Record<string, unknown>): Promise<T>;
  /** Resolves with the connection's state once its status is `status` (from GET /api/events). */
  state(status: string): Promise<Record<string, unknown>>;
  close(): void;
}

/** The header the page sends its key in (packages/cli/src/inspector/guard.ts). */
export const KEY_HEADER = "x-mcpkit-inspector-key";

/** The one-time URL exchanged, as the browser does: the cookie, and the key from the redirect's fragment. */
export async function exchangeToken(url: string): Promise<{ cookie: string; key: string }> {
  const exchanged = await fetch(url, { redirect: "manual" });
  const cookie = (exchanged.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const key = /^\/#key=([\w-]+)$/.exec(exchanged.headers.get("location") ?? "")?.[1];
  if (exchanged.status !== 303 || !cookie || !key) throw new Error(`The token was refused (${exchanged.status})`);
  return { cookie, key };
}

export async function inspectorApi(url: string): Promise<InspectorApi> {
  const origin = new URL(url).origin;
  const { cookie, key } = await exchangeToken(url);
  const headers = { cookie, origin, [KEY_HEADER]: key, "content-type": "application/json" };
  const streams = new AbortController();
  return {
    async call(op, body = {}) {
      const response = await fetch(`${origin}/api/${op}`, { method: "POST", headers, body: JSON.stringify(body) });
      const answer = (await response.json()) as { value?: unknown; error?: { message: string } };
      if (answer.error) throw new Error(answer.error.message);
      return answer.value as never;
    },
    async state(status) {
      const response = await fetch(`${origin}/api/events`, {
        headers: { cookie, [KEY_HEADER]: key },
        signal: streams.signal,
      });
      const decoder = new TextDecoder();
      let text = "";
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        for (let end = text.indexOf("\n\n"); end !== -1; end = text.indexOf("\n\n")) {
          const event = JSON.parse(text.slice(6, end)) as Record<string, unknown>;
          text = text.slice(end + 2);
          if ((event.type === "snapshot" || event.type === "state") && event.status === status) {
            await response.body?.cancel().catch(() => undefined);
            return event;
          }
        }
      }
      throw new Error(`The event stream ended before the status was ${status}`);
    },
    close: () => streams.abort(),
  };
}
