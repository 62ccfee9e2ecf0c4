/**
 * Reads a stream to its end, or stops (cancelling it) as soon as it passes `maxBytes`: publisher
 * pages (MAX_PAGE_BYTES) are read this way, so a huge page is never buffered whole. Returns null
 * when the stream was over the cap. (The API's own 1 MiB body cap is Hono's bodyLimit.)
 */
export async function readAtMost(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
