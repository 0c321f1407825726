/** Reading bounded HTTP bodies: a server cannot make the client buffer without limit. */

export class BodyTooLarge extends Error {
  constructor(limit: number) {
    super(`The server's answer is larger than the ${limit}-byte limit`);
    this.name = "BodyTooLarge";
  }
}

/** The body as text, failing once it passes `limit` bytes. */
export async function readText(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (declared > limit) {
    // Only discarding the body: a failed cancel leaves nothing to clean up.
    await response.body?.cancel().catch(() => {});
    throw new BodyTooLarge(limit);
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > limit) {
      // Only discarding the body: a failed cancel leaves nothing to clean up.
      await reader.cancel().catch(() => {});
      throw new BodyTooLarge(limit);
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** Reads and drops a body so the connection can be reused; never throws. */
export async function discard(response: Response): Promise<void> {
  // Only discarding the body: a failed cancel leaves nothing to clean up.
  await response.body?.cancel().catch(() => {});
}

/** The media type without parameters, lower-cased ("text/event-stream; charset=utf-8" → "text/event-stream"). */
export const mediaType = (response: Response) =>
  (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();

/** How much of an error answer is read: enough to report it, never the whole of a huge one. */
export const ERROR_BODY_LIMIT = 64 * 1024;

/** The text of an error answer, to report with the status; "" when it cannot be read. */
export function readErrorText(response: Response): Promise<string> {
  return readText(response, ERROR_BODY_LIMIT).catch(() => "");
}
