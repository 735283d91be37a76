/** Published test nDCG@10 of a collection, printed beside a run's own BM25 figure. */
export interface Anchors {
  bm25: number;
  bm25CrossEncoder: number;
  source: string;
}

/** By the directory's name: only collections whose figures are published, so no other run is measured against SciFact's. */
export const PUBLISHED_ANCHORS: Readonly<Record<string, Anchors>> = {
  scifact: { bm25: 0.665, bm25CrossEncoder: 0.688, source: 'BEIR (Thakur et al., NeurIPS 2021 Datasets and Benchmarks), SciFact nDCG@10' },
};

/** The published figures of the collection in the directory `name`, whatever its case (`SciFact`, `scifact`). */
export const anchorsFor = (name: string): Anchors | undefined => PUBLISHED_ANCHORS[name.toLowerCase()];
