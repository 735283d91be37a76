import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { objectLines, writeLines } from './archive-objects.ts';
import { countedR2 } from './counted-r2.ts';

/** An object's lines as `objectLines` streams them, gathered. */
async function readLines(bucket: R2Bucket, key: string): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of objectLines(bucket, key)) lines.push(line);
  return lines;
}

/** R2's smallest part but the last (the local bucket holds to it too). */
const PART = 5 * 1024 * 1024;

/** Lines of random base64, which gzip cannot shrink much: `lines` of about 64 KB each. */
function incompressibleLines(lines: number): string[] {
  const out: string[] = [];
  const bytes = new Uint8Array(48 * 1024);
  for (let i = 0; i < lines; i++) {
    for (let at = 0; at < bytes.length; at += 65536) crypto.getRandomValues(bytes.subarray(at, at + 65536));
    out.push(JSON.stringify({ id: `row-${i}`, blob: btoa(String.fromCharCode(...bytes)) }));
  }
  return out;
}

/** Pages read so far by `pages`. */
const progress = { pages: 0 };

/** The lines given as pages of `size`, each after a pause as a D1 query takes, as the archive stage reads a day. */
async function* pages(lines: readonly string[], size: number, failAfter = Number.POSITIVE_INFINITY) {
  for (let at = 0; at < lines.length; at += size) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    if (at >= failAfter) throw new Error('D1 went away');
    progress.pages++;
    yield lines.slice(at, at + size);
  }
}

/** The bucket, noting the size of each part uploaded, the pages read while it was sent, and each upload aborted. */
function watchedBucket() {
  const bucket = env.ARCHIVE;
  const seen = { parts: [] as number[], pagesDuringPart: [] as number[], aborted: 0, puts: 0 };
  const watched = {
    get: (key: string) => bucket.get(key),
    delete: (key: string) => bucket.delete(key),
    put: (...args: Parameters<R2Bucket['put']>) => {
      seen.puts++;
      return bucket.put(...args);
    },
    createMultipartUpload: async (key: string, options?: R2MultipartOptions) => {
      const upload = await bucket.createMultipartUpload(key, options);
      return {
        key: upload.key,
        uploadId: upload.uploadId,
        uploadPart: async (n: number, part: Uint8Array) => {
          seen.parts.push(part.byteLength);
          const before = progress.pages;
          // A part takes a while to reach R2, longer than a page's query.
          await new Promise((resolve) => setTimeout(resolve, 40));
          const uploaded = await upload.uploadPart(n, part);
          seen.pagesDuringPart.push(progress.pages - before);
          return uploaded;
        },
        complete: (parts: R2UploadedPart[]) => upload.complete(parts),
        abort: () => {
          seen.aborted++;
          return upload.abort();
        },
      };
    },
  } as unknown as R2Bucket;
  return { bucket: watched, seen };
}

/** An object's SHA-256 and size, compared rather than megabytes whose diff would not print. */
async function digestOf(key: string): Promise<string> {
  const body = await (await env.ARCHIVE.get(key))!.arrayBuffer();
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', body));
  return `${body.byteLength}:${[...hash].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Where two lists of lines first differ (-1 when they are the same), so a failure prints small. */
const firstDifference = (a: readonly string[], b: readonly string[]) =>
  a.length !== b.length ? Math.min(a.length, b.length) : a.findIndex((line, i) => line !== b[i]);

/** Writing 11 MiB of gzip in workerd takes seconds when the suite runs in parallel on two cores. */
const LARGE = { timeout: 30_000 };

describe('archive objects', () => {
  it('writes a day larger than one part in parts of equal size, the same bytes as one put, read back line by line', LARGE, async () => {
    const lines = incompressibleLines(240); // about 11.3 MiB gzipped
    const { bucket, seen } = watchedBucket();
    expect(await writeLines(bucket, 'p/traces/2026-12-01.jsonl.gz', pages(lines, 16), PART)).toBe(240);
    expect(seen.parts.length).toBe(3);
    expect(seen.parts.slice(0, -1)).toEqual([PART, PART]);
    expect(seen.parts.at(-1)).toBeLessThanOrEqual(PART);
    expect(seen.puts).toBe(0);
    // While a part is sent, at most the next page is read: the rest wait.
    expect(Math.max(...seen.pagesDuringPart)).toBeLessThanOrEqual(1);
    expect(firstDifference(await readLines(env.ARCHIVE, 'p/traces/2026-12-01.jsonl.gz'), lines)).toBe(-1);

    // One put of the same lines (a part too large to fill) gives the very same object.
    const single = watchedBucket();
    await writeLines(single.bucket, 'p/traces/one-put.jsonl.gz', pages(lines, 16), Number.POSITIVE_INFINITY);
    expect(single.seen).toMatchObject({ parts: [], aborted: 0, puts: 1 });
    expect(await digestOf('p/traces/2026-12-01.jsonl.gz')).toBe(await digestOf('p/traces/one-put.jsonl.gz'));
  });

  it('gives gzip a page in writes of some 64 KB, not the page whole, and writes the same bytes as gzipping the lines at once', LARGE, async () => {
    // 8,000 lines of some 300 characters: pages of 2,000 are about 600 KB each.
    const lines = Array.from({ length: 8_000 }, (_, i) => JSON.stringify({ eventId: `event-${i}`, detail: { text: `é ${'x'.repeat(i % 500)}` }, at: i * 1.5 }));
    const writes: number[] = [];
    // The global the object's writing makes its gzip stream from.
    const scope = globalThis as unknown as { CompressionStream: typeof CompressionStream };
    const Gzip = scope.CompressionStream;
    // The gzip stream the object is written through, noting the size of each write it is given.
    scope.CompressionStream = class {
      readonly readable: ReadableStream<Uint8Array>;
      readonly writable: WritableStream<BufferSource>;
      constructor(format: ConstructorParameters<typeof CompressionStream>[0]) {
        const gzip = new Gzip(format);
        const noted = new TransformStream<BufferSource, BufferSource>({
          transform(chunk, out) {
            writes.push(chunk.byteLength);
            out.enqueue(chunk);
          },
        });
        void noted.readable.pipeTo(gzip.writable).catch(() => undefined);
        this.readable = gzip.readable;
        this.writable = noted.writable;
      }
    } as typeof CompressionStream;
    try {
      await writeLines(env.ARCHIVE, 'p/events/2026-12-04.jsonl.gz', pages(lines, 2_000));
    } finally {
      scope.CompressionStream = Gzip;
    }
    expect(writes.reduce((a, b) => a + b, 0)).toBe(new TextEncoder().encode(lines.map((l) => `${l}\n`).join('')).byteLength);
    expect(Math.max(...writes)).toBeLessThan(80 * 1024);
    const atOnce = new Response(new Blob([lines.map((l) => `${l}\n`).join('')]).stream().pipeThrough(new Gzip('gzip')));
    const expected = new Uint8Array(await atOnce.arrayBuffer());
    const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', expected));
    expect(await digestOf('p/events/2026-12-04.jsonl.gz')).toBe(`${expected.byteLength}:${[...hash].map((b) => b.toString(16).padStart(2, '0')).join('')}`);
  });

  it('counts each R2 call of a multipart upload, as Cloudflare counts subrequests', LARGE, async () => {
    const r2 = countedR2(env.ARCHIVE);
    await writeLines(r2.bucket, 'p/traces/2026-12-03.jsonl.gz', pages(incompressibleLines(240), 16), PART);
    // Creating it, three parts, completing it.
    expect(r2.calls()).toBe(5);
    expect((await readLines(r2.bucket, 'p/traces/2026-12-03.jsonl.gz')).length).toBe(240);
    expect(r2.calls()).toBe(6);
  });

  it('aborts the upload and leaves the object as it was when reading the rows fails after a part was sent', LARGE, async () => {
    const key = 'p/traces/2026-12-02.jsonl.gz';
    await writeLines(env.ARCHIVE, key, pages(['{"id":"kept"}'], 1));
    const { bucket, seen } = watchedBucket();
    await expect(writeLines(bucket, key, pages(incompressibleLines(240), 16, 224), PART)).rejects.toThrow('D1 went away');
    expect(seen.parts.length).toBeGreaterThan(0);
    expect(seen.aborted).toBe(1);
    expect(await readLines(env.ARCHIVE, key)).toEqual(['{"id":"kept"}']);
  });
});
