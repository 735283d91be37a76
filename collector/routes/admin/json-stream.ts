/**
 * JSON written piece by piece, byte for byte what `JSON.stringify` writes for plain data (objects,
 * arrays, strings, numbers, booleans, null). A payload whose parts share long strings (the
 * training data's candidates share chunk texts) holds each string once in memory but many times
 * in its JSON: streamed, the JSON is never one string.
 */

/** The pieces of `value`'s JSON: objects and arrays opened up, one piece per leaf or array element. */
export function* jsonPieces(value: unknown): Generator<string> {
  if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ',';
      const item = value[i];
      // As JSON.stringify: an element it cannot write is null.
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') yield 'null';
      else yield* jsonPieces(item);
    }
    yield ']';
  } else if (value !== null && typeof value === 'object' && !('toJSON' in value)) {
    yield '{';
    let first = true;
    for (const [key, item] of Object.entries(value)) {
      // As JSON.stringify: a property it cannot write is left out.
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      yield `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      yield* jsonPieces(item);
    }
    yield '}';
  } else {
    yield JSON.stringify(value);
  }
}

/** Bytes handed on at a time: large enough that a stream of small pieces costs little. */
const CHUNK_CHARS = 64 * 1024;

/** `value`'s JSON as a byte stream, written as it is read. */
export function jsonStream(value: unknown): ReadableStream<Uint8Array> {
  const pieces = jsonPieces(value);
  const encoder = new TextEncoder();
  return new ReadableStream({
    pull(controller) {
      let text = '';
      for (;;) {
        const next = pieces.next();
        if (next.done) {
          if (text) controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        text += next.value;
        if (text.length >= CHUNK_CHARS) {
          controller.enqueue(encoder.encode(text));
          return;
        }
      }
    },
  });
}
