/** Reading and writing the archive's objects: JSON lines, gzipped (CompressionStream, which workerd has). */

/**
 * The size of an object's parts when it is uploaded in several (R2: at least 5 MiB, all but the
 * last the same size). Writing a day holds at most one part of its gzipped bytes, next to the page
 * of rows being read: a full-scale day of traces (~42 MB gzipped) no longer sits whole in the
 * Worker's 128 MB. An object smaller than one part is put in one request.
 */
export const ARCHIVE_PART_BYTES = 8 * 1024 * 1024;

/**
 * An object's lines, unzipped as they are read (a full-scale day of traces is far more than a
 * Worker's memory unzipped); none when there is no object.
 */
export async function* objectLines(bucket: R2Bucket, key: string): AsyncGenerator<string> {
  const object = await bucket.get(key);
  if (!object) return;
  const reader = object.body.pipeThrough(new DecompressionStream('gzip')).pipeThrough(new TextDecoderStream()).getReader();
  let done = false;
  try {
    let rest = '';
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      const lines = (rest + read.value).split('\n');
      rest = lines.pop()!;
      for (const line of lines) if (line) yield line;
    }
    done = true;
    if (rest) yield rest;
  } finally {
    // A reader that stops early lets go of the object's body.
    if (!done) await reader.cancel().catch(() => undefined);
  }
}

/**
 * Replaces an object with these lines, gzipped as they are read and uploaded a part at a time, or
 * deletes it when there are none. An upload that fails is aborted, leaving the object as it was.
 */
export async function writeLines(bucket: R2Bucket, key: string, batches: AsyncIterable<readonly string[]>, partBytes = ARCHIVE_PART_BYTES): Promise<number> {
  const gzip = new CompressionStream('gzip');
  // workerd's gzip takes every write at once and queues its output: the writing waits for a part
  // being sent instead, so the rows read meanwhile are one page.
  const sending = { part: Promise.resolve() as Promise<unknown> };
  const uploading = uploadGzipped(bucket, key, gzip.readable, partBytes, sending);
  // Its failure is met below, once the writing stops too.
  uploading.catch(() => undefined);
  let lines: number;
  try {
    lines = await gzipBatches(gzip.writable, batches, () => sending.part.catch(() => undefined));
  } catch (error) {
    // The upload sees the stream fail and aborts before this gives up.
    await uploading.catch(() => undefined);
    throw error;
  }
  const upload = await uploading;
  if (upload.parts) return upload.parts.complete(lines);
  if (lines === 0) await bucket.delete(key);
  else await bucket.put(key, upload.whole, { httpMetadata: OBJECT_HTTP_METADATA });
  return lines;
}

const OBJECT_HTTP_METADATA = { contentType: 'application/gzip' };

/**
 * Characters of lines encoded and written to gzip at once: a page goes in writes of about this
 * much, not as one string of the whole page and one array of its bytes (MBs each, 24 times a
 * piece, which kept the Worker's process some 35 MB higher through a large day's events).
 */
const GZIP_WRITE_CHARS = 64 * 1024;

/**
 * Writes the batches' lines into the gzip stream, each once no part is being sent, and closes it;
 * on failure errors the stream. Returns the lines written.
 */
async function gzipBatches(
  writable: WritableStream<BufferSource>,
  batches: AsyncIterable<readonly string[]>,
  partSent: () => Promise<unknown>,
): Promise<number> {
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  let lines = 0;
  try {
    for await (const batch of batches) {
      await partSent();
      let text = '';
      for (const line of batch) {
        text += `${line}\n`;
        if (text.length >= GZIP_WRITE_CHARS) {
          await writer.write(encoder.encode(text));
          text = '';
        }
      }
      if (text) await writer.write(encoder.encode(text));
      lines += batch.length;
    }
    await writer.close();
  } catch (error) {
    await writer.abort(error).catch(() => undefined);
    throw error;
  }
  return lines;
}

/** A multipart upload under way: its last part still to send when the lines end. */
interface OpenUpload {
  complete(lines: number): Promise<number>;
}

/**
 * Reads the gzipped bytes, sending each full part as it fills (the writing waits meanwhile). Bytes
 * that never fill a part come back whole, for one put; otherwise the upload is left open for its
 * last part. A failure aborts the upload and cancels the stream, so the writer stops too.
 */
async function uploadGzipped(
  bucket: R2Bucket,
  key: string,
  readable: ReadableStream<Uint8Array>,
  partBytes: number,
  sending: { part: Promise<unknown> },
): Promise<{ whole: Uint8Array; parts?: undefined } | { whole?: undefined; parts: OpenUpload }> {
  const reader = readable.getReader();
  const pending = new PartBuffer(partBytes);
  let upload: R2MultipartUpload | undefined;
  const sent: R2UploadedPart[] = [];
  const abort = async (error: unknown) => {
    await reader.cancel(error).catch(() => undefined);
    await upload?.abort().catch(() => undefined);
  };
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      pending.add(chunk.value);
      for (let part = pending.takeFull(); part; part = pending.takeFull()) {
        upload ??= await bucket.createMultipartUpload(key, { httpMetadata: OBJECT_HTTP_METADATA });
        const uploaded = upload.uploadPart(sent.length + 1, part);
        sending.part = uploaded;
        sent.push(await uploaded);
      }
    }
  } catch (error) {
    await abort(error);
    throw error;
  }
  const last = pending.takeRest();
  if (!upload) return { whole: last };
  const open = upload;
  return {
    parts: {
      async complete(lines) {
        try {
          if (last.byteLength) sent.push(await open.uploadPart(sent.length + 1, last));
          await open.complete(sent);
          return lines;
        } catch (error) {
          await open.abort().catch(() => undefined);
          throw error;
        }
      },
    },
  };
}

/** Gzipped bytes waiting to be sent, cut into parts of exactly `partBytes` (R2 wants them equal). */
class PartBuffer {
  #chunks: Uint8Array[] = [];
  #bytes = 0;
  constructor(private readonly partBytes: number) {}

  add(chunk: Uint8Array) {
    this.#chunks.push(chunk);
    this.#bytes += chunk.byteLength;
  }

  /** The next full part, if the bytes fill one. */
  takeFull(): Uint8Array | null {
    return this.#bytes >= this.partBytes ? this.#take(this.partBytes) : null;
  }

  /** All the bytes left (fewer than a part). */
  takeRest(): Uint8Array {
    return this.#take(this.#bytes);
  }

  #take(size: number): Uint8Array {
    const out = new Uint8Array(size);
    let at = 0;
    while (at < size) {
      const chunk = this.#chunks[0]!;
      const n = Math.min(chunk.byteLength, size - at);
      out.set(chunk.subarray(0, n), at);
      at += n;
      if (n === chunk.byteLength) this.#chunks.shift();
      else this.#chunks[0] = chunk.subarray(n);
    }
    this.#bytes -= size;
    return out;
  }
}
