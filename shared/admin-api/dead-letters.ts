/** What `GET /v1/admin/dead-letters` takes and answers, and its `/replay`: queued events the consumer could not write. */

/** Bounds of `limit`, and the list's length by default. */
export const DEAD_LETTERS_MAX_LIMIT = 100;
export const DEAD_LETTERS_LIMIT = 20;

/** One queue message the consumer could not write, kept until it is replayed. */
export interface DeadLetter {
  /** The queue message's id. */
  id: string;
  /** When the dead-letter queue's consumer kept it (epoch ms). */
  deadLetteredAt: number;
  /** The last write's error, as D1 gave it. */
  error: string;
  /** Writes that failed since it was dead-lettered (the consumer's, then each replay's). */
  attempts: number;
  /** Its events as queued, without their client-address hash (as every admin read), and its batch's drop report with the event keying it. */
  message: { rows: Record<string, unknown>[]; dropped?: number; firstEventId?: string };
}

export interface DeadLetters {
  /** How many the project has; `deadLetters` lists up to `limit` of them, in the order a replay takes them. */
  total: number;
  deadLetters: DeadLetter[];
  /**
   * How POST /v1/events stores events now (`EVENTS_INGEST`): only `queue` makes dead letters, so with
   * `direct` an empty list has nothing to wait for (those kept from a time in queue mode still replay).
   */
  ingest: 'direct' | 'queue';
}

export interface DeadLetterReplay {
  /** Ids written and forgotten. */
  written: string[];
  /** Ids that failed again, each with its error: they stay. */
  failed: { id: string; error: string }[];
  /** Dead letters the project still has (those failed, and any past one call's limit). */
  remaining: number;
}
