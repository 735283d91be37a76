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
      /** The path of the offending field, e.g. `events[3].detail.stars`. */
      field: string;
      /** Why, in words. */
      reason: string;
    };

/** The body of a batch response (200, or 400 when every item was rejected). */
export interface BatchResult {
  accepted: number;
  duplicate: number;
  rejected: number;
  /** One entry per item, in batch order. */
  results: ItemResult[];
}
