/**
 * Ranking quality of one query's results against its relevance judgments, computed as
 * trec_eval / pytrec_eval do (and so BEIR): the numbers compare with published baselines, and
 * the reranker's eval gate uses the same definitions.
 *
 * `ranked` is the system's list of document ids, best first, without repeats. `judged` maps
 * document ids to graded relevance (qrels); a grade of 0 or less, or no grade, is not relevant.
 */

/** Relevance judgments of one query: document id to grade. */
export type Judgments = ReadonlyMap<string, number>;

const gain = (judged: Judgments, id: string) => Math.max(0, judged.get(id) ?? 0);

/**
 * Normalised discounted cumulative gain at k: sum of grade / log2(rank + 1) over the top k,
 * divided by the same sum for the ideal ordering of the judged documents (linear gain, as
 * trec_eval's ndcg_cut). 0 when the query has no relevant document.
 */
export function ndcgAt(k: number, ranked: readonly string[], judged: Judgments): number {
  let dcg = 0;
  for (const [i, id] of ranked.slice(0, k).entries()) dcg += gain(judged, id) / Math.log2(i + 2);
  const ideal = [...judged.values()]
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, k);
  let idcg = 0;
  for (const [i, g] of ideal.entries()) idcg += g / Math.log2(i + 2);
  return idcg === 0 ? 0 : dcg / idcg;
}

/** Reciprocal rank of the first relevant document within the top k; 0 when none is there. */
export function mrrAt(k: number, ranked: readonly string[], judged: Judgments): number {
  const i = ranked.slice(0, k).findIndex((id) => gain(judged, id) > 0);
  return i < 0 ? 0 : 1 / (i + 1);
}

/** Share of the relevant documents found in the top k; 0 when the query has none. */
export function recallAt(k: number, ranked: readonly string[], judged: Judgments): number {
  let relevant = 0;
  for (const g of judged.values()) if (g > 0) relevant++;
  if (relevant === 0) return 0;
  return ranked.slice(0, k).filter((id) => gain(judged, id) > 0).length / relevant;
}

/** A metric of one query, as the functions above. */
export type RankingMetric = (k: number, ranked: readonly string[], judged: Judgments) => number;

/**
 * Mean of `metric` at k over every judged query, as BEIR reports it: queries with judgments but
 * no results count as 0; results for queries without judgments are ignored.
 */
export function meanOverQueries(metric: RankingMetric, k: number, runs: ReadonlyMap<string, readonly string[]>, qrels: ReadonlyMap<string, Judgments>): number {
  if (qrels.size === 0) return 0;
  let sum = 0;
  for (const [queryId, judged] of qrels) sum += metric(k, runs.get(queryId) ?? [], judged);
  return sum / qrels.size;
}
