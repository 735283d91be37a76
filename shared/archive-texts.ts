/**
 * Chunk texts in a day's traces object of the raw rows' archive (collector/jobs/stages/archive.ts):
 * a chunk's text (by chunk id and document version) is written with the first trace of the object
 * that cites it and left out of the traces after it.
 * The same chunk is cited by many answers a day (in the nightly benchmark about three times, in
 * the loop's runs nine), and its text is most of a trace's bytes. Reading an object in order,
 * a chunk without `text` has the text it had in an earlier line.
 */

/** A chunk as a trace's line holds it. */
export interface ArchivedChunk {
  chunkId: string;
  sourceDocVersion: string | null;
  /** Its text where the object first cites it (null when none was stored); absent after. */
  text?: string | null;
}

const textKey = (chunk: ArchivedChunk) => `${chunk.chunkId}\u0000${chunk.sourceDocVersion ?? ''}`;

/**
 * The texts one object has written so far. Lines are given in the order the object is written.
 * Rewriting an object (rows that came late, an erasure) gives the old object's lines in their
 * order, each kept or dropped: a text a dropped line held goes with the next kept line citing it.
 */
export class ObjectTexts {
  readonly #written = new Set<string>();
  /** Texts read from dropped lines and not yet written. */
  readonly #pending = new Map<string, string | null>();

  /**
   * Makes the chunks of a line written next hold each text once: it leaves out texts written
   * already and gives back a dropped line's. Returns whether it changed any.
   */
  keep(chunks: ArchivedChunk[]): boolean {
    let changed = false;
    for (const chunk of chunks) {
      const key = textKey(chunk);
      if (this.#written.has(key)) {
        if ('text' in chunk) {
          delete chunk.text;
          changed = true;
        }
        continue;
      }
      if (!('text' in chunk)) {
        // Not written yet, so an earlier line of the old object that was dropped held it.
        if (!this.#pending.has(key)) continue;
        chunk.text = this.#pending.get(key)!;
        changed = true;
      }
      this.#pending.delete(key);
      this.#written.add(key);
    }
    return changed;
  }

  /** Notes the texts of a line left out, for the next line kept that cites them. */
  drop(chunks: readonly ArchivedChunk[]): void {
    for (const chunk of chunks) {
      const key = textKey(chunk);
      if ('text' in chunk && !this.#written.has(key)) this.#pending.set(key, chunk.text ?? null);
    }
  }
}

/**
 * Reading an object's lines in order (`npm run archive:lines`): gives each chunk without its text
 * the text the object wrote for it earlier.
 */
export class TextsRead {
  readonly #texts = new Map<string, string | null>();

  fill(chunks: ArchivedChunk[]): void {
    for (const chunk of chunks) {
      const key = textKey(chunk);
      if ('text' in chunk) this.#texts.set(key, chunk.text ?? null);
      else chunk.text = this.#texts.get(key) ?? null;
    }
  }
}
