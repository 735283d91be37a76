import type { FieldErrors } from '../validation.ts';

/** What happened to one item of a POST /v1/events or /v1/traces batch. */
export type ItemResult =
  | {
      /** Position of the item in the batch. */
      index: number;
      /** The item's event or trace id. */
      id: string;
      /** Stored now, or stored before (a retry): either way the client can forget it. */
      status: 'accepted' | 'duplicate';
    }
  | {
      index: number;
      id?: string;
      /** Invalid: retrying it cannot help. */
      status: 'rejected';
      /** The path of the offending field, e.g. `events[3].detail.stars`: the first of `fields`. */
      field: string;
      /** Why, in words: the first of `fields`' messages. */
      reason: string;
      /** Every field at fault (one at least), each with its message: all put right in one round. */
      fields: FieldErrors;
    }
  | {
      index: number;
      id: string;
      /**
       * Not stored: its session sent more events this minute than it may, while others of the
       * batch did not. The client keeps it and sends it again after `retryAfter`.
       */
      status: 'rate_limited';
      /** The field that decided it: `events[3].sessionId`. */
      field: string;
      /** Why, in words. */
      reason: string;
      /** Seconds to wait before sending it again, as a `Retry-After` header says. */
      retryAfter: number;
    };

/**
 * The body of a batch response: 200; 400 when every item was rejected; 429 (with `Retry-After`)
 * when some items are `rate_limited`, the others stored or refused as in a 200.
 */
export interface BatchResult {
  accepted: number;
  duplicate: number;
  rejected: number;
  /** Items of sessions over their limit: not stored, to be sent again later. */
  rateLimited: number;
  /** One entry per item, in batch order. */
  results: ItemResult[];
}
