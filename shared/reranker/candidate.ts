/** A chunk as a backend hands it to `rerank()`: retrieval's order is the list's order. */
export interface Candidate {
  chunkId: string;
  /** Lets document-level evidence reach chunks the judgements never named. */
  sourceDocId?: string;
  /**
   * The chunk as its trace logs it (a title, if the model should read one, within it): retraining
   * learns from the traces' text, so the model reads nothing else.
   */
  text: string;
  /** Retrieval's score; absent, the rank alone speaks for retrieval. */
  score?: number;
}

/** A candidate with the reranker's score; the list comes best first. */
export type Reranked<C extends Candidate = Candidate> = C & {
  /** The reranker's score for this query (comparable within one call only). */
  rerankScore: number;
  /** 1-based position retrieval gave it. */
  retrievalRank: number;
  /**
   * The model that ranked the list, to log on its trace as `rerankerVersion` (a model promoted
   * meanwhile does not change it); absent when the list is in retrieval's order.
   */
  rerankerVersion?: string;
};
