/**
 * `createReranker`: a backend's handle on the promoted model. It fetches `GET /v1/reranker` once,
 * then revalidates in the background with If-None-Match, so a promotion or a rollback reaches the
 * backend within `refreshMs` and costs one small 304 otherwise. Ranking is pure TypeScript, the
 * same in Node and in Workers; with no model (or no collector) it keeps retrieval's order.
 */
import { type Embedder, float32Vector } from '../shared/embedder.ts';
import { SizedCache } from '../shared/remember.ts';
import type { Candidate, Reranked } from '../shared/reranker/candidate.ts';
import { parseRerankerModel, type RerankerModel } from '../shared/reranker/model.ts';
import { readOnce } from '../shared/reranker/ranked-copy.ts';
import { rankingWithModel, unusableRanking, usesEmbeddings } from '../shared/reranker/rerank.ts';
import { retrievalRanking } from '../shared/reranker/retrieval-order.ts';
import { joinUrl } from '../shared/url.ts';
import { callSafely } from './callback.ts';
import { rerankInput } from './candidates.ts';
import { collectorError } from './collector-error.ts';
import { DeadlineError, LOST_AFTER_DEADLINE_MS, withDeadline } from './deadline.ts';
import { networkReason } from './network-reason.ts';
import { checkedCallbacks, checkedConnection, type FetchOption, fetchOf, msOption, numberOption } from './options.ts';
import { FOLLOW_NO_REDIRECT, redirectNote } from './redirect.ts';

export type { Candidate, Reranked } from '../shared/reranker/candidate.ts';

export interface RerankerOptions {
  /** The collector's base URL. */
  endpoint: string;
  /** The project's server key (`rfs_…`). */
  serverKey: string;
  /** How old the model may get before it is revalidated (default one minute; Infinity: only when `refresh()` is called). */
  refreshMs?: number;
  /** For models trained with embedding features: the same embedder (its `id` must match). */
  embedder?: Embedder;
  /**
   * Longest wait for the collector's answer, and for the embedder's vectors (default ten seconds):
   * ranking never waits on a hung collector or embedder longer. 0 waits however long they take.
   */
  timeoutMs?: number;
  /** What to send with: a fetch function (a test's), or a service binding given whole (`env.COLLECTOR`). */
  fetch?: FetchOption;
  /** Told when the model cannot be fetched; ranking goes on with the last good model (what it throws, or rejects with, is ignored). */
  onError?: (error: Error) => void;
}

export interface Reranker {
  /**
   * The candidates best first, each a copy of the chunk given (a plain object spread; a class
   * instance's prototype and own properties kept, so its getters and methods work) with
   * `rerankScore`, `retrievalRank` and `rerankerVersion`; the chunk itself is
   * `chunks[retrievalRank - 1]`, unchanged. Never rejects.
   */
  rerank<C extends Candidate>(query: string, chunks: readonly C[]): Promise<Reranked<C>[]>;
  /**
   * The model in use now; undefined in retrieval's order. A trace logs the `rerankerVersion` of the
   * list `rerank()` gave instead: a model fetched between ranking and logging changes this.
   */
  readonly version: string | undefined;
  /** Revalidates now: resolves once a request sent after this call is answered. */
  refresh(): Promise<void>;
}

/** Chunk vectors kept at most, whatever their size. */
export const CHUNK_VECTOR_CACHE = 20_000;
/**
 * Bytes, about, the cached vectors and their texts may hold (four a dimension, one a character):
 * entries alone did not bound it, and 20,000 chunks of 3,072 dimensions held 245 MB.
 */
export const CHUNK_VECTOR_CACHE_BYTES = 64_000_000;

/** A cache of chunk vectors with the text each was made from, within the two bounds above. */
export const chunkVectorCache = <K>() =>
  new SizedCache<K, { text: string; vector: Float32Array }>({
    maxEntries: CHUNK_VECTOR_CACHE,
    maxSize: CHUNK_VECTOR_CACHE_BYTES,
    sizeOf: (v) => v.text.length + v.vector.byteLength,
  });

/** The error code of the collector's 404 when no model is promoted (collector/routes/v1/reranker.ts). */
const NO_MODEL = 'no_model';

/** What ranking reads of a chunk: a score of NaN or ±Infinity says nothing about it, ranked as if retrieval gave none. */
const rankingView = (c: Candidate): Candidate => ({
  chunkId: c.chunkId,
  sourceDocId: c.sourceDocId,
  text: c.text,
  score: Number.isFinite(c.score) ? c.score : undefined,
});

/**
 * Why the model cannot rank a trial chunk, if it cannot: the schema checks each field, not that
 * they work together (a collector of a later version may serve what this ranking code cannot use). Refused, the last good model stays in
 * use, rather than every call falling back to retrieval's order while `version` names this one.
 */
function rankingError(model: RerankerModel): Error | undefined {
  try {
    rankingWithModel(model, 'trial', [{ chunkId: 'trial', sourceDocId: 'trial', text: 'trial', score: 1 }]);
    return undefined;
  } catch (error) {
    return new Error(`model ${model.version} cannot rank: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/**
 * The model an artifact holds, or why it cannot serve and which version it claims: it fails the
 * schema, or passes it and cannot rank. Either is that version's for good, so it is refused once.
 */
function servable(artifact: unknown): { model: RerankerModel } | { version: string; refusal: Error } {
  const claimed = (artifact as { version?: unknown } | null)?.version;
  const version = typeof claimed === 'string' ? claimed : 'without a version';
  let model: RerankerModel;
  try {
    model = parseRerankerModel(artifact);
  } catch (error) {
    return { version, refusal: new Error(`model ${version} is ${error instanceof Error ? error.message : String(error)}`, { cause: error }) };
  }
  const refusal = rankingError(model);
  return refusal ? { version: model.version, refusal } : { model };
}

/** Throws a RangeError naming the option when one cannot work (a `refreshMs` of NaN would never revalidate). */
export function createReranker(options: RerankerOptions): Reranker {
  checkedConnection(options);
  checkedCallbacks(options);
  const refreshMs = numberOption('refreshMs', options.refreshMs, 60_000, { min: 0, infinite: true });
  const timeoutMs = msOption('timeoutMs', options.timeoutMs, 10_000);
  const doFetch = fetchOf(options.fetch);
  // The backend's callback failing must not fail its ranking.
  const tell = (error: unknown) => callSafely(options.onError, error instanceof Error ? error : new Error(String(error)));
  let model: RerankerModel | null = null;
  let etag: string | undefined;
  /** The model last refused on arrival: its ETag, sent in If-None-Match, keeps it from being downloaded again, its version from being reported again. */
  let refused: { version: string; etag: string | undefined } | undefined;
  let checkedAt = Number.NEGATIVE_INFINITY;
  /** The revalidation on its way, and when it was sent. */
  let pending: { check: Promise<void>; since: number } | undefined;
  /** Chunk vectors by chunk id, with the text each was made from; they depend on the embedder alone, not the model. */
  const vectors = chunkVectorCache<string>();
  const toldMismatch = new WeakSet<RerankerModel>();

  const url = joinUrl(options.endpoint, '/v1/reranker');

  async function load(): Promise<void> {
    try {
      const headers: Record<string, string> = { Authorization: `Bearer ${options.serverKey}` };
      // A 304 then means the collector still serves one of these: the model in use, or the one refused.
      const known = [etag, refused?.etag].filter((tag) => tag !== undefined);
      if (known.length > 0) headers['If-None-Match'] = known.join(', ');
      // The answer read in full within the deadline: headers alone can come before a body that never does.
      const answer = await withDeadline(timeoutMs, async (signal) => {
        const res = await doFetch(new Request(url, { headers, signal, redirect: FOLLOW_NO_REDIRECT })).catch((error: unknown) => {
          throw new Error(`GET /v1/reranker failed: ${networkReason(error, url)}`, { cause: error });
        });
        if (res.status === 304) return { res };
        if (!res.ok) return { res, error: collectorError(await res.json().catch(() => null)) };
        return { res, text: await res.text() };
      });
      const { res } = answer;
      checkedAt = Date.now();
      if (res.status === 304) return;
      if (answer.text === undefined) {
        const { error } = answer;
        // Only the collector's "no model" means retrieval's order: a proxy's 404 page must not drop the model.
        if (res.status === 404 && error?.code === NO_MODEL) {
          [model, etag, refused] = [null, undefined, undefined];
          return;
        }
        // The collector's own words say which: a revoked key (401) is not "no model yet".
        const redirect = redirectNote(res, url);
        throw new Error(`GET /v1/reranker answered ${res.status}${error ? `: ${error.message}` : redirect ? `, ${redirect}` : ''}`);
      }
      // A body that is not JSON (cut off on its way) is asked for again; one that is JSON is this version's artifact.
      const arrived = servable(JSON.parse(answer.text));
      const tag = res.headers.get('ETag') ?? undefined;
      if ('refusal' in arrived) {
        const told = refused?.version === arrived.version;
        refused = { version: arrived.version, etag: tag };
        if (told) return;
        throw arrived.refusal;
      }
      // Another model served: one refused before, promoted again later, is tried and reported again.
      [model, etag, refused] = [arrived.model, tag, undefined];
    } catch (error) {
      checkedAt = Date.now();
      tell(error);
    }
  }

  /**
   * The revalidation on its way, unless it is past its deadline unsettled: on Workers, the runtime
   * never settles a fetch (nor fires a timer) that a request which has returned left behind, and
   * such a one must not hold every later request from revalidating, nor any caller waiting on it.
   * Raced against a timer set in the caller's request, so a wait on another request's lost
   * revalidation ends when it is taken for lost; then it is forgotten and the next call sends another.
   */
  const onItsWay = (): Promise<void> | undefined => {
    const taken = pending;
    if (!taken || timeoutMs === 0) return taken?.check;
    const lostIn = taken.since + timeoutMs + LOST_AFTER_DEADLINE_MS - Date.now();
    const forget = () => {
      if (pending === taken) pending = undefined;
    };
    if (lostIn < 0) {
      forget();
      return undefined;
    }
    let takenForLost = () => {};
    const lost = new Promise<void>((resolve) => (takenForLost = resolve));
    const timer = setTimeout(() => {
      forget();
      takenForLost();
    }, lostIn);
    return Promise.race([taken.check, lost]).finally(() => clearTimeout(timer));
  };
  /** One request at a time: ranking that finds the model old shares the one on its way. */
  const revalidate = (): Promise<void> => {
    const current = onItsWay();
    if (current) return current;
    const since = Date.now();
    const check: Promise<void> = load().finally(() => {
      if (pending?.check === check) pending = undefined;
    });
    pending = { check, since };
    return check;
  };
  /**
   * A request sent after the call: one already on its way may have left before a promotion it must
   * see. Callers waiting on the same one share the request sent after it, as revalidate() does.
   */
  const refresh = (): Promise<void> => onItsWay()?.then(revalidate) ?? revalidate();

  async function embed(m: RerankerModel, query: string, chunks: readonly Candidate[]) {
    const embedder = options.embedder;
    if (!embedder || !usesEmbeddings(m)) return undefined;
    if (embedder.id !== m.embedder) {
      // Vectors of another model are never compared; said once per model, as ranking goes on without them.
      if (!toldMismatch.has(m)) {
        toldMismatch.add(m);
        tell(
          new Error(
            `model ${m.version} was trained with the embedder ${m.embedder}, and this reranker has ${embedder.id}: its embedding features sit at their mean`,
          ),
        );
      }
      return undefined;
    }
    // Taken from the cache now: a call running meanwhile may evict them. A chunk re-indexed under
    // its id with other text is embedded again.
    const known = chunks.map((c) => {
      const cached = vectors.get(c.chunkId);
      return cached?.text === c.text ? cached.vector : undefined;
    });
    const missing = chunks.filter((_, i) => !known[i]);
    // Kept when they come, even after ranking stopped waiting for them: the next list finds them.
    const embedding = (async () => {
      // Plain arrays (an embedder written in JavaScript) made Float32Array: the cache bounds vectors by their bytes.
      const [q, ...fresh] = Array.from(await embedder.embed([query, ...missing.map((c) => c.text)]), (v, i) =>
        float32Vector(v, `embedder ${embedder.id}'s vector ${i}`),
      );
      if (!q || fresh.length !== missing.length)
        throw new Error(`embedder ${embedder.id} answered ${fresh.length + (q ? 1 : 0)} vectors for ${missing.length + 1} texts`);
      for (const [i, c] of missing.entries()) vectors.set(c.chunkId, { text: c.text, vector: fresh[i]! });
      return { q, fresh };
    })();
    // A remote embedder that hangs, or a model still downloading on first use, must not hold the answer.
    const { q, fresh } = await withDeadline(timeoutMs, () => embedding).catch((error: unknown) => {
      throw error instanceof DeadlineError ? new Error(`embedder ${embedder.id} answered no vectors within ${timeoutMs} ms: ranked without them`) : error;
    });
    let next = 0;
    return { query: q, chunks: known.map((v) => v ?? fresh[next++]!) };
  }

  return {
    get version() {
      return model?.version;
    },
    refresh,
    async rerank<C extends Candidate>(query: string, chunks: readonly C[]): Promise<Reranked<C>[]> {
      // Each chunk read once (see readOnce): by the checks, and ranking reads what they read.
      const given: readonly C[] = Array.isArray(chunks) ? chunks : [];
      const { read, ranked } = readOnce(given);
      const input = rerankInput(query, Array.isArray(chunks) ? read : chunks);
      // Arguments it cannot rank (a search library's hits as they are) are retrieval's order, said why.
      if ('error' in input) {
        tell(input.error);
        return ranked(retrievalRanking(read));
      }
      // Nothing retrieved, nothing to rank: no wait for the model, no call to the embedder.
      if (given.length === 0) return [];
      // The first call waits for the model (revalidate() bounds the wait); later ones rank with what is there while it revalidates.
      if (checkedAt === Number.NEGATIVE_INFINITY) await revalidate();
      else if (Date.now() - checkedAt > refreshMs) void revalidate();
      const m = model;
      if (m) {
        try {
          const scored = input.chunks.map(rankingView);
          // An embedder that fails leaves the model to rank as it does without one (those features at
          // their mean), so the version it reports is still the one that ranked.
          const vectors = await embed(m, query, scored).catch((error: unknown) => void tell(error));
          const ranking = rankingWithModel(m, query, scored, vectors ?? undefined);
          const unusable = unusableRanking(ranking, m.version);
          if (unusable) throw unusable;
          return ranked(ranking);
        } catch (error) {
          tell(error);
        }
      }
      return ranked(retrievalRanking(input.chunks));
    },
  };
}
