/** Reading and writing the archive's objects: JSON lines, gzipped (CompressionStream, which workerd has). */

/** Gzips lines given a batch at a time, as they are read, so a day is never held whole uncompressed. */
export async function gzipLines(batches: AsyncIterable<readonly string[]>): Promise<{ body: ArrayBuffer; lines: number }> {
  const gzip = new CompressionStream('gzip');
  const compressed = new Response(gzip.readable).arrayBuffer();
  const writer = gzip.writable.getWriter();
  const encoder = new TextEncoder();
  let lines = 0;
  for await (const batch of batches) {
    if (batch.length) await writer.write(encoder.encode(batch.map((l) => `${l}\n`).join('')));
    lines += batch.length;
  }
  await writer.close();
  return { body: await compressed, lines };
}

/** An object's lines, unzipped; none when there is no object. */
export async function readLines(bucket: R2Bucket, key: string): Promise<string[]> {
  const object = await bucket.get(key);
  if (!object) return [];
  const text = await new Response(object.body.pipeThrough(new DecompressionStream('gzip'))).text();
  return text.split('\n').filter(Boolean);
}

/** Replaces an object with these lines, or deletes it when there are none. */
export async function writeLines(bucket: R2Bucket, key: string, batches: AsyncIterable<readonly string[]>): Promise<number> {
  const { body, lines } = await gzipLines(batches);
  if (lines === 0) await bucket.delete(key);
  else await bucket.put(key, body, { httpMetadata: { contentType: 'application/gzip' }, customMetadata: { rows: String(lines) } });
  return lines;
}

/** Lines already in memory, as the one batch `gzipLines` takes. */
export async function* oneBatch(lines: readonly string[]): AsyncGenerator<readonly string[]> {
  yield lines;
}
