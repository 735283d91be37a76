/**
 * An R2 binding that counts the calls made through it, parts of a multipart upload included:
 * Cloudflare counts each against an invocation's subrequests, as it does D1 queries, so the
 * nightly job counts them in the same budget (sql/counted-d1.ts).
 */
export interface CountedR2 {
  bucket: R2Bucket;
  /** Calls made so far. */
  calls: () => number;
  /** Bytes of the objects read so far (as stored: gzipped in the archive). */
  bytesRead: () => number;
}

const BUCKET_CALLS = new Set<PropertyKey>(['head', 'get', 'put', 'delete', 'list', 'createMultipartUpload']);
const UPLOAD_CALLS = new Set<PropertyKey>(['uploadPart', 'complete', 'abort']);

export function countedR2(r2: R2Bucket): CountedR2 {
  let calls = 0;
  let bytesRead = 0;
  const counting = <T extends object>(target: T, counted: Set<PropertyKey>): T =>
    new Proxy(target, {
      get(t, prop) {
        const value = Reflect.get(t, prop);
        if (typeof value !== 'function') return value;
        if (!counted.has(prop)) return value.bind(t);
        return (...args: unknown[]) => {
          calls++;
          const result = value.apply(t, args);
          // An upload begun here counts its parts too.
          if (prop === 'createMultipartUpload') return (result as Promise<R2MultipartUpload>).then((upload) => counting(upload, UPLOAD_CALLS));
          if (prop === 'get')
            return (result as Promise<R2ObjectBody | R2Object | null>).then((object) => {
              if (object && 'body' in object) bytesRead += object.size;
              return object;
            });
          return result;
        };
      },
    });
  return { bucket: counting(r2, BUCKET_CALLS), calls: () => calls, bytesRead: () => bytesRead };
}
