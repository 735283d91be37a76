/**
 * `npm run retrain`'s work: read what retraining needs from a collector's admin API, train in
 * Node (with embedding features when an embedder is given), apply the eval gate and record the
 * model in the collector's registry, promoted or not. The same `retrain()` the nightly job runs.
 */
import { confirmRephrases } from '../../client/rephrase.ts';
import type { Embedder } from '../../shared/embedder.ts';
import type { RerankerModel } from '../../shared/reranker/model.ts';
import { rerankWithModel, usesEmbeddings } from '../../shared/reranker/rerank.ts';
import type { LoopSettings } from '../../shared/schema/settings.ts';
import type { TrainingData } from '../../shared/training/data.ts';
import type { EvalQuery, Ranker } from '../../shared/training/gate.ts';
import { type RetrainOutcome, retrain } from '../../shared/training/retrain.ts';
import { chunkVectorKey, consolidate } from '../../shared/training/train.ts';
import { AdminApiError, type AdminTarget, admin } from '../admin-api.ts';
import { embedAll, type TextVectors } from './vectors.ts';

export interface TrainingPayload {
  data: TrainingData;
  evalQueries: EvalQuery[];
  current: RerankerModel | null;
  /**
   * The version users get (null: retrieval's order), also when its artifact cannot be read and
   * `current` is null; a collector of an earlier version does not send it.
   */
  currentVersion?: string | null;
  settings: LoopSettings;
  /** Whether any confirmed example is new since the last model was trained (as the nightly job asks). */
  newExamples: boolean;
  /** When the collector read it (its clock): sent back with the model, which forgets what was erased since. */
  readAt: number;
}

export interface RemoteRetrainOptions {
  embedder?: Embedder;
  /** Train and judge, but record nothing. */
  dryRun?: boolean;
  /** Train even when no confirmed example is new since the last model. */
  force?: boolean;
  /** The moment retraining happens (its engagement window ends there); now by default. */
  now?: number;
  log?: (line: string) => void;
}

/**
 * The echo query a variant re-asks: the one agreeing with most of its judgements, which it
 * inherited from that question. Any judged chunk in common is not enough: questions share
 * distractors judged not relevant.
 */
function echoOf(variant: EvalQuery, echoes: readonly EvalQuery[]): EvalQuery | undefined {
  let best: EvalQuery | undefined;
  let most = 0;
  for (const e of echoes) {
    let agree = 0;
    for (const [id, relevance] of Object.entries(variant.judgements)) if (Object.hasOwn(e.judgements, id) && e.judgements[id] === relevance) agree++;
    if (agree > most) [best, most] = [e, agree];
  }
  return best;
}

/**
 * The variant layer holds what users typed when they re-asked; the widget paired them lexically.
 * With an embedder, a variant stays only if it means what its echo query means.
 */
async function confirmVariants(embedder: Embedder, evalQueries: readonly EvalQuery[]): Promise<EvalQuery[]> {
  const echoes = evalQueries.filter((q) => q.layer === 'echo');
  const variants = evalQueries.filter((q) => q.layer === 'variant');
  const pairs = variants.map((v) => ({ a: echoOf(v, echoes)?.query ?? '', b: v.query }));
  const confirmed = pairs.length ? await confirmRephrases(embedder, pairs) : [];
  const kept = new Set(variants.filter((_, i) => pairs[i]!.a !== '' && confirmed[i]));
  return evalQueries.filter((q) => q.layer !== 'variant' || kept.has(q));
}

const rankerWith =
  (vectors: TextVectors | undefined) =>
  (model: RerankerModel): Ranker =>
  (query, candidates) => {
    const withVectors = vectors && usesEmbeddings(model) && model.embedder === vectors.embedder;
    const v = withVectors
      ? {
          query: vectors.byQuery.get(query) ?? new Float32Array(0),
          chunks: candidates.map((c) => vectors.chunks.get(chunkVectorKey(c)) ?? new Float32Array(0)),
        }
      : undefined;
    return rerankWithModel(model, query, candidates, v).map((r) => r.chunkId);
  };

/**
 * What became of a retraining: `recorded` once the collector stored the model; `refused`, the
 * collector's reason when it would not (nothing stored), as when a model was promoted while this
 * one trained, so that its gate compared it with what users no longer get.
 */
export type RemoteRetrainOutcome = RetrainOutcome & { recorded: boolean; refused?: string };

/** Why a retraining is refused when no answer is new since the last model: the one refusal `force` overrides. */
export const NOTHING_NEW = 'no confirmed example is new since the last model';

export async function retrainRemote(target: AdminTarget, options: RemoteRetrainOptions = {}): Promise<RemoteRetrainOutcome> {
  const log = options.log ?? (() => {});
  const payload = await admin<TrainingPayload>(target, options.now === undefined ? '/training-data' : `/training-data?at=${Math.trunc(options.now)}`);
  // As the nightly job: a model of what the last one saw would only fill the registry with rejections.
  if (!payload.newExamples && !options.force)
    return {
      trained: false,
      confirmed: consolidate(payload.data.confirmed).length,
      reason: NOTHING_NEW,
      recorded: false,
    };
  let { evalQueries } = payload;
  let vectors: TextVectors | undefined;
  if (options.embedder) {
    const before = evalQueries.length;
    evalQueries = await confirmVariants(options.embedder, evalQueries);
    log(`embeddings: ${options.embedder.id}; ${before - evalQueries.length} variant eval queries not confirmed as rephrases`);
    vectors = await embedAll(options.embedder, payload.data, evalQueries);
  } else {
    log('embeddings: none configured, so the model uses lexical features only');
  }
  const now = options.now ?? Date.now();
  const version = retrainVersion(now);
  // The served model's artifact may not be readable (stored before artifacts were checked as now):
  // compared with retrieval's order, as the nightly job does, but named as what it replaces.
  const comparedWith = payload.currentVersion === undefined ? (payload.current?.version ?? null) : payload.currentVersion;
  if (comparedWith !== null && payload.current === null) log(`the served ${comparedWith} cannot be read: compared with retrieval's order`);
  const trained = retrain({ ...payload, evalQueries, version, now, vectors, rankWith: rankerWith(vectors) });
  if (!trained.trained || options.dryRun) return { ...trained, recorded: false };
  let outcome = trained;
  for (let taken = 0; ; taken++) {
    try {
      await admin(target, '/models', { method: 'POST', json: { ...modelRecord(outcome, comparedWith), dataReadAt: payload.readAt } });
      return { ...outcome, recorded: true };
    } catch (err) {
      if (!(err instanceof AdminApiError && err.status === 409)) throw err;
      // Another run stored a model in the same millisecond: this one takes the next millisecond's
      // name, which still sorts after it and keeps the format.
      if (err.code === 'model_exists' && taken < MAX_NAMES_TAKEN) {
        outcome = { ...outcome, model: { ...outcome.model, version: retrainVersion(now + taken + 1) } };
        continue;
      }
      // Else the world moved on since the data was read (stale_comparison, stale_training_data):
      // the training is sound, and training again fits it.
      return { ...outcome, recorded: false, refused: err.detail };
    }
  }
}

/** How many names taken by other runs a retraining steps past: more is no race but a registry answering wrongly. */
const MAX_NAMES_TAKEN = 10;

/**
 * A model's version as `npm run retrain` names it: retrain-20261130T021500.123Z, UTC to the
 * millisecond, since the registry refuses a version stored already and two runs may finish in one
 * second (in one millisecond, the later to record takes the next one's); of one width, so versions
 * sort as they were made.
 */
export const retrainVersion = (at: number): string => `retrain-${new Date(at).toISOString().replace(/[-:]/g, '')}`;

/** `POST /v1/admin/models`'s body for a training's outcome, the model compared with `comparedWith`. */
export const modelRecord = (outcome: Extract<RetrainOutcome, { trained: true }>, comparedWith: string | null) => ({
  model: outcome.model,
  confirmed: outcome.confirmed,
  comparedWith,
  evaluation: outcome.evaluation,
  promote: outcome.decision.promote,
  findings: outcome.decision.findings,
  reasons: outcome.decision.reasons,
});
