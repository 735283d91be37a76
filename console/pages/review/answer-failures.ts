import type { Words } from '../../ui/words.ts';

/**
 * Why the reviewer's last answer or undo was not saved, said on the review page shown when it is
 * known: an answer sent in the background may fail after its page was left (a trace opened from
 * the item), and the item then waits again on the list the reviewer comes back to. Kept until a
 * page takes it, so no failure passes unsaid.
 */
export class AnswerFailures {
  private shown: ((words: Words) => void) | undefined;
  private unsaid: Words | undefined;

  /** A failure: told to the page shown, or kept for the next one. */
  report(words: Words): void {
    if (this.shown) this.shown(words);
    else this.unsaid = words;
  }

  /** The review page now shown, told of failures from now on. Answers a function that stops it. */
  listen(page: (words: Words) => void): () => void {
    this.shown = page;
    return () => {
      if (this.shown === page) this.shown = undefined;
    };
  }

  /** A failure no page has said yet (it came while none was shown), once. */
  take(): Words | undefined {
    const unsaid = this.unsaid;
    this.unsaid = undefined;
    return unsaid;
  }
}
