/**
 * The demo's reranker once the loop has a model: `createReranker` from the client library,
 * keeping the promoted model fresh from the collector. Until a model is promoted it keeps
 * retrieval's order, and traces carry no reranker version.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createReranker, type RerankerOptions } from '../../client/reranker.ts';
import { passage } from '../corpus/chunk.ts';
import { identityReranker, type Reranker } from './rerank.ts';

export interface PromotedRerankerOptions extends RerankerOptions {
  /**
   * Asks the collector before each answer whether the model changed (a conditional GET), waiting
   * up to this long: a promotion or rollback then shows at the very next answer, where the
   * client alone revalidates in the background and the answer after shows it. Unset: background only.
   */
  revalidateWaitMs?: number;
}

/** The demo's reranker, the model it has now, and a way to fetch the promoted model now rather than when it is due. */
export interface PromotedReranker extends Reranker {
  readonly version: string | undefined;
  refresh(): Promise<void>;
}

export function promotedReranker({ revalidateWaitMs, ...options }: PromotedRerankerOptions): PromotedReranker {
  const client = createReranker(options);
  /** Whether the collector has answered once (or failed to): until then the client's ranking would wait for it. */
  let checked = false;
  return {
    get version() {
      return client.version;
    },
    refresh: () => client.refresh(),
    async rerank(query, candidates) {
      if (revalidateWaitMs !== undefined) {
        const refreshed = client.refresh().then(() => {
          checked = true;
        });
        await Promise.race([refreshed, sleep(revalidateWaitMs)]);
        // The client's first ranking waits for the model as long as its timeout (ten seconds) on a
        // collector that hangs: the answer waits no longer than said, in retrieval's order meanwhile.
        if (!checked) return identityReranker.rerank(query, candidates);
      }
      const ranked = await client.rerank(
        query,
        candidates.map((s) => ({
          chunkId: s.chunk.chunkId,
          sourceDocId: s.chunk.sourceDocId,
          text: passage(s.chunk),
          score: s.score,
          scored: s,
        })),
      );
      return { ranked: ranked.map((r) => ({ chunk: r.scored.chunk, score: r.rerankScore })), version: ranked[0]?.rerankerVersion };
    },
  };
}
