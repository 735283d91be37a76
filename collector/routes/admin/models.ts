import { Hono } from 'hono';
import * as v from 'valibot';
import { idRecord } from '../../../shared/reranker/id-record.ts';
import { StrictRerankerModelSchema } from '../../../shared/reranker/model.ts';
import { epochMs, finiteAndShallow, label, MAX_JSON_NESTING } from '../../../shared/schema/common.ts';
import { MAX_COUNT } from '../../../shared/schema/counts.ts';
import { MAX_GATE_FINDINGS, MAX_MODEL_BODY_BYTES, MAX_MODEL_EVALUATION_BYTES, TRAINING_DATA_MAX_AGE_MS } from '../../../shared/thresholds.ts';
import { GateFindingSchema } from '../../../shared/training/gate-findings.ts';
import { consolidate } from '../../../shared/training/train.ts';
import type { AppEnv } from '../../env.ts';
import { ApiError } from '../../errors.ts';
import { jsonBody } from '../../middleware/json-body.ts';
import { validBody } from '../../middleware/valid-body.ts';
import { epochMsParam, validQuery } from '../../middleware/valid-query.ts';
import { recordForgetting } from '../../storage/erasure-memory.ts';
import { settingsOf } from '../../storage/loop-settings.ts';
import {
  currentVersion,
  latestTraining,
  modelArtifact,
  modelExists,
  modelRegistry,
  newSinceLastModel,
  promoteModel,
  rollBack,
  servedModel,
} from '../../storage/models.ts';
import { type ChunkTexts, evalQueries, trainingData } from '../../storage/training-data.ts';
import { startTrainingRead } from '../../storage/training-reads.ts';
import { jsonStream } from './json-stream.ts';

const encoder = new TextEncoder();
const jsonBytes = (value: unknown) => encoder.encode(JSON.stringify(value)).length;

/** A model trained outside the job (`npm run retrain`), with the gate's verdict it computed. */
const Trained = v.pipe(
  v.strictObject({
    model: StrictRerankerModelSchema,
    confirmed: v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.maxValue(MAX_COUNT)),
    comparedWith: v.nullable(label(100)),
    /** What the gate measured, kept as sent: every key, `constructor` and `__proto__` included. */
    evaluation: v.pipe(
      idRecord(v.unknown()),
      v.check<Record<string, unknown>, string>(finiteAndShallow, `must hold only finite numbers, nested at most ${MAX_JSON_NESTING} deep`),
      // Measured once shallow: written out nested deeper, it would overflow the stack. Stored in one D1 value.
      v.check(
        (e) => !finiteAndShallow(e) || jsonBytes(e) <= MAX_MODEL_EVALUATION_BYTES,
        `must be at most ${MAX_MODEL_EVALUATION_BYTES.toLocaleString('en')} bytes as JSON`,
      ),
    ),
    promote: v.boolean(),
    reasons: v.pipe(v.array(label(1_000)), v.maxLength(MAX_GATE_FINDINGS)),
    /** Optional: a retraining of an earlier version sends reasons only. */
    findings: v.optional(v.pipe(v.array(GateFindingSchema), v.maxLength(MAX_GATE_FINDINGS)), []),
    /**
     * When the training data was read (`readAt` of GET /v1/admin/training-data): the model forgets
     * the questions of erasures finished since, and reviewers' answers given since are new to it.
     * Without it, the questions of every erasure still kept, and answers given since the models before
     * it read their data (every answer for the first).
     */
    dataReadAt: v.optional(epochMs()),
  }),
  // The console shows the findings: they must say what the decision did.
  v.forward(
    v.check(
      (t) => t.findings.length === 0 || t.promote === t.findings.every((f) => f.kind === 'passed'),
      'must say the gate passed exactly when promote is true',
    ),
    ['findings'],
  ),
);

/** `?at=<epoch ms>`: what retraining at that moment reads (its engagement window ends there). */
const AtQuery = v.strictObject({ at: epochMsParam() });

/** A promotion's reason, and the version it means to replace (null: retrieval's order; refused if users get another by then). */
const PromoteBody = v.strictObject({ reason: v.optional(label(1_000)), from: v.optional(v.nullable(label(100))) });
/** A rollback's reason, and the version it means to stop serving (refused if users get another by then). */
const RollbackBody = v.strictObject({ reason: v.optional(label(1_000)), version: v.optional(label(100)) });
/** A reason, which may be left out, body and all. */
const reasonBody = jsonBody({ maxBytes: 16 * 1024, contentTypes: ['application/json'], optional: true });

export const modelRoutes = new Hono<AppEnv>()
  /** GET /v1/admin/models: every trained model, newest first, with metrics and the gate's decision; which one users get; the rollout history. */
  .get('/models', async (c) => {
    const { projectId } = c.get('auth');
    return c.json(await modelRegistry(c.env.DB, projectId));
  })
  /** GET /v1/admin/models/:version: one model's artifact. */
  .get('/models/:version', async (c) => {
    const artifact = await modelArtifact(c.env.DB, c.get('auth').projectId, c.req.param('version'));
    if (!artifact) throw new ApiError(404, { code: 'unknown_model', message: 'No model has this version', field: 'version' });
    c.header('Content-Type', 'application/json; charset=utf-8');
    return c.body(artifact);
  })
  /** POST /v1/admin/models: record a model trained by `npm run retrain`, served at once when its gate passed. */
  .post('/models', jsonBody({ maxBytes: MAX_MODEL_BODY_BYTES, contentTypes: ['application/json'] }), validBody(Trained, 'invalid_model'), async (c) => {
    const { projectId } = c.get('auth');
    const { dataReadAt, ...t } = c.get('input');
    const at = Date.now();
    if (dataReadAt !== undefined && dataReadAt > at)
      throw ApiError.fields('invalid_model', [{ field: 'dataReadAt', message: 'dataReadAt is later than now: send readAt as the training data gave it' }]);
    // Erasures are remembered that long: a model of older data might remember a question erased since.
    if (dataReadAt !== undefined && at - dataReadAt > TRAINING_DATA_MAX_AGE_MS)
      throw new ApiError(409, {
        code: 'stale_training_data',
        message: `Trained on data read more than ${TRAINING_DATA_MAX_AGE_MS / 3_600_000} hours ago: read it again and train again`,
        field: 'dataReadAt',
      });
    const recorded = await recordForgetting(c.env.DB, projectId, { ...t, trainedBy: 'retrain', at, dataReadAt });
    if (recorded.outcome === 'stale')
      throw new ApiError(409, {
        code: 'stale_comparison',
        message: `Its gate compared it with ${t.comparedWith ?? "retrieval's order"}, but users get ${recorded.current ?? "retrieval's order"} now: train again against that`,
        field: 'comparedWith',
      });
    if (recorded.outcome === 'exists')
      throw new ApiError(409, { code: 'model_exists', message: `A model ${t.model.version} is already stored`, field: 'model.version' });
    return c.json({ version: t.model.version, promoted: t.promote, current: await currentVersion(c.env.DB, projectId) }, 201);
  })
  /** POST /v1/admin/models/:version/promote: serve a stored model (an admin may overrule the gate; the reason is kept). */
  .post('/models/:version/promote', reasonBody, validBody(PromoteBody, 'invalid_reason'), async (c) => {
    const { projectId } = c.get('auth');
    const version = c.req.param('version');
    const { reason, from } = c.get('input');
    if (!(await modelExists(c.env.DB, projectId, version)))
      throw new ApiError(404, { code: 'unknown_model', message: 'No model has this version', field: 'version' });
    const outcome = await promoteModel(c.env.DB, projectId, version, reason ?? 'promoted by an admin', Date.now(), from);
    if (outcome === 'already_current') throw new ApiError(409, { code: 'already_current', message: `Users already get ${version}`, field: 'version' });
    if (typeof outcome === 'object') {
      const named = (x: string | null) => x ?? "retrieval's order";
      throw new ApiError(409, {
        code: 'not_served',
        message: `Users get ${named(outcome.served)} now, not ${named(from ?? null)}: nothing was promoted`,
        field: 'from',
      });
    }
    return c.json({ current: version });
  })
  /** POST /v1/admin/models/rollback: stop serving the current model and serve the one before it (or retrieval's order); with `version`, only if that is the one served. */
  .post('/models/rollback', reasonBody, validBody(RollbackBody, 'invalid_reason'), async (c) => {
    const { reason, version } = c.get('input');
    const done = await rollBack(c.env.DB, c.get('auth').projectId, reason ?? 'rolled back by an admin', Date.now(), version);
    if (!done) throw new ApiError(409, { code: 'nothing_to_roll_back', message: 'No model is served: users already get retrieval order' });
    if ('served' in done)
      throw new ApiError(409, { code: 'not_served', message: `Users get ${done.served} now, not ${version}: nothing was rolled back`, field: 'version' });
    return c.json({ rolledBack: done.from, current: done.to });
  })

  /**
   * GET /v1/admin/training-data?at=: what retraining reads (confirmed examples, candidates,
   * engagement, eval sets, the current model) and when (`readAt`, sent back with the model).
   * `currentVersion` is what users get even when its artifact cannot be read (`current` null,
   * compared as retrieval's order): a promotion must name it as `comparedWith`, or be refused stale.
   */
  .get('/training-data', validQuery(AtQuery), async (c) => {
    const { projectId } = c.get('auth');
    const readAt = await startTrainingRead(c.env.DB, projectId);
    const now = c.get('input').at ?? readAt;
    const texts: ChunkTexts = new Map();
    const [data, evals, served, settings, last] = await Promise.all([
      trainingData(c.env.DB, projectId, now, undefined, texts),
      evalQueries(c.env.DB, projectId, texts),
      servedModel(c.env.DB, projectId),
      settingsOf(c.env.DB, projectId),
      latestTraining(c.env.DB, projectId),
    ]);
    // What the nightly job asks before it retrains, for `npm run retrain` to ask too.
    const newExamples = await newSinceLastModel(c.env.DB, projectId, last, consolidate(data.confirmed).length);
    // Candidates share chunk texts in memory, not in JSON: written whole, it would be several times the payload.
    const payload = { data, evalQueries: evals, current: served.model, currentVersion: served.version, settings, newExamples, readAt };
    return c.body(jsonStream(payload), 200, { 'content-type': 'application/json; charset=UTF-8' });
  });
