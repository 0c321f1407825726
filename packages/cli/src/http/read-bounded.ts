/**
 * A response's body, read to its end unless it passes `limit` bytes: then the rest is left
 * unread (the stream cancelled) and the answer is undefined. For documents a server names
 * (authorization metadata, a gateway's /healthz): small, and never trusted to be.
 */
export async function readBounded(response: Response, limit: number): Promise<Uint8Array | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Only discarding the body: a failed cancel leaves nothing to clean up.
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
