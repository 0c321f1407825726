/**
 * The inspector driven over its own HTTP API, as its page drives it but without a browser:
 * the one-time token exchanged for the cookie, `POST /api/<op>` with the page's Origin,
 * and the state the event stream reports. For tests about what the inspector connects
 * to, not about the page.
 */
export interface InspectorApi {
  call<T = Record<string, unknown>>(op: string, body?: Record<string, unknown>): Promise<T>;
  /** Resolves with the connection's state once its status is `status` (from GET /api/events). */
  state(status: string): Promise<Record<string, unknown>>;
  close(): void;
}

export async function inspectorApi(url: string): Promise<InspectorApi> {
  const origin = new URL(url).origin;
  const exchanged = await fetch(url, { redirect: "manual" });
  const cookie = (exchanged.headers.get("set-cookie") ?? "").split(";")[0] as string;
  if (exchanged.status !== 303 || !cookie) throw new Error(`The token was refused (${exchanged.status})`);
  const headers = { cookie, origin, "content-type": "application/json" };
  const streams = new AbortController();
  return {
    async call(op, body = {}) {
      const response = await fetch(`${origin}/api/${op}`, { method: "POST", headers, body: JSON.stringify(body) });
      const answer = (await response.json()) as { value?: unknown; error?: { message: string } };
      if (answer.error) throw new Error(answer.error.message);
      return answer.value as never;
    },
    async state(status) {
      const response = await fetch(`${origin}/api/events`, { headers: { cookie }, signal: streams.signal });
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
