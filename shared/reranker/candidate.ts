/** A chunk as a backend hands it to `rerank()`: retrieval's order is the list's order. */
export interface Candidate {
  chunkId: string;
  /** Lets document-level evidence reach chunks the judgements never named. */
  sourceDocId?: string;
  text: string;
  title?: string;
  /** Retrieval's score; absent, the rank alone speaks for retrieval. */
  score?: number;
}

/** A candidate with the reranker's score; the list comes best first. */
export type Reranked<C extends Candidate = Candidate> = C & {
  /** The reranker's score for this query (comparable within one call only). */
  rerankScore: number;
  /** 1-based position retrieval gave it. */
  retrievalRank: number;
};
