/**
 * The queue a queued-events message goes to after its last retry (wrangler.toml `dead_letter_queue`),
 * consumed by this Worker too. Apart from the consumer's code, so a Node test can check it against
 * wrangler.toml (scripts/wrangler-queues.test.ts).
 */
export const DEAD_LETTER_QUEUE = 'rag-feedback-events-dlq';
