/**
 * The model registry: every trained model with its gate decision, and the rollout history whose
 * replay says which model users get. Promotions push, rollbacks pop: rolling back always restores
 * what was served before, down to retrieval's own order.
 */
import type { ModelRegistry, ModelRollout, ModelSummary } from '../../shared/admin-api/models.ts';
import { parseRerankerModel, type RerankerModel } from '../../shared/reranker/model.ts';
import type { GateFinding } from '../../shared/training/gate-findings.ts';
import { exampleAnsweredAfter } from './training-data.ts';

export interface NewModel {
  model: RerankerModel;
  trainedBy: ModelSummary['trainedBy'];
  confirmed: number;
  comparedWith: string | null;
  evaluation: Record<string, unknown>;
  promote: boolean;
  findings: GateFinding[];
  reasons: string[];
  /** Its night's moment: the model's date, which the schedule counts nights from. */
  at: number;
  /**
   * When its training read the examples, by the real clock reviewers' answers are stamped by (a
   * night run with `?at=` is dated days from it): answers given after it are new to the model.
   * Unknown (a model sent without it): stored as `UNKNOWN_READ_SQL` says, marked unknown for loop
   * health; erasure memory then keeps every erasure. Known, erasures finished since it are
   * forgotten too (erasure-memory.ts).
   */
  dataReadAt?: number;
}

/**
 * SQL for when a model of project ?1 recorded at ?3 without its read's time read its data: when the
 * models before it last did, or before any answer for the first. Any later read (the project's
 * latest, say) may be an export's made after its own: answers given between the two would count as
 * seen by it, and retraining would wait for another answer before it learnt them.
 */
const UNKNOWN_READ_SQL = 'min(coalesce((select max(data_read_at) from models where project_id = ?1), 0), ?3)';

interface Rollout {
  action: 'promote' | 'rollback';
  version: string;
}

/** One rollout applied to the served stack: a promotion pushes, a rollback of what is served pops. */
function apply(stack: string[], r: Rollout): void {
  if (r.action === 'promote') stack.push(r.version);
  else if (stack.at(-1) === r.version) stack.pop();
}

/** The served stack after replaying the rollouts: the last entry is what users get. */
function replay(rollouts: readonly Rollout[]): string[] {
  const stack: string[] = [];
  for (const r of rollouts) apply(stack, r);
  return stack;
}

/** The served stack, and the last rollout's seq (0 before any) for an append that must follow it. */
async function rollouts(d1: D1Database, projectId: string): Promise<{ stack: string[]; seq: number }> {
  const { results } = await d1
    .prepare('select seq, action, version from model_rollouts where project_id = ? order by seq')
    .bind(projectId)
    .all<Rollout & { seq: number }>();
  return { stack: replay(results), seq: results.at(-1)?.seq ?? 0 };
}

const servedStack = async (d1: D1Database, projectId: string): Promise<string[]> => (await rollouts(d1, projectId)).stack;

/** The version users get, or null for retrieval's order. */
export async function currentVersion(d1: D1Database, projectId: string): Promise<string | null> {
  return (await servedStack(d1, projectId)).at(-1) ?? null;
}

/**
 * The version users got at `at` (null: retrieval's order): the rollouts made by then, replayed. A
 * night's health snapshot, caught up after later rollouts, names the model that night served.
 */
export async function versionServedAt(d1: D1Database, projectId: string, at: number): Promise<string | null> {
  const { results } = await d1
    .prepare('select action, version from model_rollouts where project_id = ? and at <= ? order by seq')
    .bind(projectId, at)
    .all<Rollout>();
  return replay(results).at(-1) ?? null;
}

/**
 * The version users get (null: retrieval's order) with its revision, in one round trip: what a
 * backend's poll of `GET /v1/reranker` reads. The revisions come from the models rewritten at all.
 */
export async function currentVersionAndRevision(d1: D1Database, projectId: string): Promise<{ version: string | null; revision: number }> {
  const [history, rewritten] = await d1.batch<Rollout & { revision: number }>([
    d1.prepare('select action, version from model_rollouts where project_id = ? order by seq').bind(projectId),
    d1.prepare('select version, revision from models where project_id = ? and revision > 0').bind(projectId),
  ]);
  const version = replay(history!.results).at(-1) ?? null;
  return { version, revision: rewritten!.results.find((m) => m.version === version)?.revision ?? 0 };
}

/** Reads a version's artifact in its parts, the row's first with the revision they are at. */
const artifactRead = (d1: D1Database, projectId: string, version: string) =>
  d1
    .prepare(
      `select 0 as part, artifact as text, revision from models where project_id = ?1 and version = ?2
       union all select part, text, null from model_parts where project_id = ?1 and version = ?2 order by part`,
    )
    .bind(projectId, version);

/** The artifact from its parts as read, or null when no such model is stored. */
const joinedParts = (results: readonly { part: number; text: string }[]) => (results[0]?.part === 0 ? results.map((r) => r.text).join('') : null);

/** The artifact of one version, as stored (JSON text), or null. */
export async function modelArtifact(d1: D1Database, projectId: string, version: string): Promise<string | null> {
  return joinedParts((await artifactRead(d1, projectId, version).all<{ part: number; text: string }>()).results);
}

/**
 * The artifact of one version with the revision it is at, read in one statement, or null: a
 * revision read apart may be older than the text, which an erasure's rewrite landing in between changed.
 */
export async function revisedArtifact(d1: D1Database, projectId: string, version: string): Promise<{ artifact: string; revision: number } | null> {
  const { results } = await artifactRead(d1, projectId, version).all<{ part: number; text: string; revision: number | null }>();
  const artifact = joinedParts(results);
  return artifact === null ? null : { artifact, revision: results[0]!.revision ?? 0 };
}

/**
 * Rewrites a stored artifact under its version with what `edit` makes of its text (null: nothing
 * to change), counting a revision; its parts are replaced only while the row is at the revision
 * read. False when another rewrite landed between the read and the write: the caller reads it again.
 */
export async function rewriteArtifact(
  d1: D1Database,
  projectId: string,
  version: string,
  edit: (artifact: string) => string | null | Promise<string | null>,
): Promise<boolean> {
  // Read together, as one state: read apart, a rewrite landing between them could be written over.
  const [revisions, parts] = await d1.batch<{ revision: number } | { part: number; text: string }>([
    d1.prepare('select revision from models where project_id = ? and version = ?').bind(projectId, version),
    artifactRead(d1, projectId, version),
  ]);
  const revision = (revisions!.results[0] as { revision: number } | undefined)?.revision;
  const artifact = joinedParts(parts!.results as { part: number; text: string }[]);
  if (revision === undefined || artifact === null) return true;
  const text = await edit(artifact);
  if (text === null) return true;
  const bytes = new TextEncoder().encode(text).length;
  const [first, ...rest] = artifactParts(text);
  // The parts go first, while the row is still at the revision read, and the row last: a rewrite
  // that lost the race writes nothing. Conditioned on the row after its update, the loser of two
  // rewrites of one length replaced the winner's parts with its own, a text neither wrote.
  const unchanged = 'exists (select 1 from models where project_id = ?1 and version = ?2 and revision = ?3)';
  const results = await d1.batch([
    d1.prepare(`delete from model_parts where project_id = ?1 and version = ?2 and ${unchanged}`).bind(projectId, version, revision),
    ...partInserts(d1, projectId, version, rest, 'revision = ?5', [revision]),
    d1
      .prepare('update models set artifact = ?5, bytes = ?4, revision = ?3 + 1 where project_id = ?1 and version = ?2 and revision = ?3')
      .bind(projectId, version, revision, bytes, first),
  ]);
  return results.at(-1)!.meta.changes > 0;
}

/**
 * Statements storing an artifact's parts past the first, each only while the version's row is the
 * one this write made or means to replace (`row`, SQL over its values from ?5): a write that lost a
 * race adds none.
 */
function partInserts(
  d1: D1Database,
  projectId: string,
  version: string,
  rest: readonly string[],
  row: string,
  values: readonly unknown[],
): D1PreparedStatement[] {
  return rest.map((text, i) =>
    d1
      .prepare(
        `insert into model_parts (project_id, version, part, text) select ?1, ?2, ?3, ?4
         where exists (select 1 from models where project_id = ?1 and version = ?2 and ${row})
         on conflict do nothing`,
      )
      .bind(projectId, version, i + 1, text, ...values),
  );
}

/**
 * UTF-16 units of an artifact stored in one value: at most 3 bytes each in UTF-8, 1.2 MB, under the
 * 2 MB D1 takes. A model's memory of judged questions (with their vectors) grows past that.
 */
export const MODEL_PART_CHARS = 400_000;

/** `text` in parts of at most `size` (2 or more) units, none cut between the halves of a surrogate pair. */
export function artifactParts(text: string, size = MODEL_PART_CHARS): string[] {
  const parts: string[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(at + size, text.length);
    // A high surrogate last would leave its pair to the next part: both halves stored apart are broken text.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
    parts.push(text.slice(at, end));
    at = end;
  }
  return parts.length ? parts : [''];
}

/**
 * The version users get and its model, parsed: null for retrieval's order, or for an artifact that
 * no longer parses (stored before artifacts were checked as they are now), which `unreadable` says
 * why of. Ranking then keeps retrieval's order and retraining compares with it, so the next model
 * that beats retrieval replaces it, rather than every rerank and every night failing on it.
 */
export async function servedModel(d1: D1Database, projectId: string): Promise<{ version: string | null; model: RerankerModel | null; unreadable?: string }> {
  const version = await currentVersion(d1, projectId);
  const artifact = version ? await modelArtifact(d1, projectId, version) : null;
  if (!artifact) return { version, model: null };
  try {
    return { version, model: parseRerankerModel(artifact) };
  } catch (error) {
    return { version, model: null, unreadable: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The registry as one state: every model (newest first, at most `limit`), the rollout history
 * (newest first, at most `limit`, replayed from the first rollout) and the version users get, read
 * in one batch (one transaction). Read apart, a promotion or rollback landing between the reads
 * made the answer disagree with itself: a version current that no listed model is, a history
 * without the promotion that made it current. A promotion written with its model, at the model's
 * own time, is the gate's; every other rollout came through the admin API.
 */
export async function modelRegistry(d1: D1Database, projectId: string, limit = 100): Promise<ModelRegistry> {
  const [rollouts, models] = await d1.batch<StoredRollout | StoredModel>([
    d1
      .prepare(
        `select r.at, r.action, r.version, r.reason,
           r.action = 'promote' and exists (select 1 from models m where m.project_id = r.project_id and m.version = r.version and m.created_at = r.at) as byGate
         from model_rollouts r where r.project_id = ? order by r.seq`,
      )
      .bind(projectId),
    d1
      .prepare(
        `select version, created_at as createdAt, trained_by as trainedBy, bytes, confirmed, compared_with as comparedWith, evaluation, decision, reasons, findings
         from models where project_id = ? order by created_at desc, version desc limit ?`,
      )
      .bind(projectId, limit),
  ]);
  const stack: string[] = [];
  const history = (rollouts!.results as StoredRollout[]).map((r): ModelRollout => {
    const from = stack.at(-1) ?? null;
    apply(stack, r);
    return { at: r.at, action: r.action, from, to: stack.at(-1) ?? null, by: r.byGate ? 'gate' : 'admin', reason: r.reason };
  });
  const current = stack.at(-1) ?? null;
  return {
    current,
    models: (models!.results as StoredModel[]).map((r) => ({
      ...r,
      evaluation: JSON.parse(r.evaluation),
      reasons: JSON.parse(r.reasons),
      findings: JSON.parse(r.findings),
      current: r.version === current,
    })),
    rollouts: history.reverse().slice(0, limit),
  };
}

type StoredRollout = Rollout & { at: number; reason: string; byGate: number };
type StoredModel = Omit<ModelSummary, 'evaluation' | 'reasons' | 'findings' | 'current'> & { evaluation: string; reasons: string; findings: string };

interface AppendOptions {
  /**
   * The seq of the last rollout read before deciding: the append takes the next seq, so it is
   * skipped if another rollout took it meanwhile. Without it, the append follows whatever is last.
   */
  after?: number;
  /** Append only while no model of this version is stored (recording one and serving it at once). */
  unlessStored?: boolean;
  /** Append only while this holds (recording one under a condition). */
  condition?: WriteCondition;
}

/**
 * A condition a write is made under, as SQL over parameters numbered from `first` (the
 * statement's own come before), with their values.
 */
export type WriteCondition = (first: number) => { sql: string; values: unknown[] };

const appendRollout = (
  d1: D1Database,
  projectId: string,
  at: number,
  action: Rollout['action'],
  version: string,
  reason: string,
  { after, unlessStored = false, condition = always }: AppendOptions = {},
) => {
  const held = condition(7);
  return d1
    .prepare(
      `insert into model_rollouts (project_id, seq, at, action, version, reason)
       select ?1, coalesce(?6, (select coalesce(max(seq), 0) from model_rollouts where project_id = ?1)) + 1, ?2, ?3, ?4, ?5
       where ${unlessStored ? 'not exists (select 1 from models where project_id = ?1 and version = ?4)' : 'true'} and (${held.sql})
       on conflict do nothing`,
    )
    .bind(projectId, at, action, version, reason, after ?? null, ...held.values);
};

const always: WriteCondition = () => ({ sql: 'true', values: [] });

/** What recording a model did: stored it, found the version stored already, or found its comparison stale. */
export type Recorded = { outcome: 'recorded' } | { outcome: 'exists' } | { outcome: 'stale'; current: string | null };

/** What recording a model under a condition did: the above, or nothing, since the condition did not hold. */
export type RecordedUnder = Recorded | { outcome: 'condition_failed' };

/**
 * Stores a trained model with its decision and, when promoted, serves it: one batch, so both or
 * neither happen. Nothing is written when the project already has a model of this version (stored
 * by a request that won a race, say), nor when a promoted model's gate compared it with another
 * than users get now: served over that, it would skip a gate. The promotion is appended after
 * the rollouts it checked, so one landing in between is read and checked afresh. Under a
 * `condition`, nothing is written unless it holds as the batch lands.
 */
export async function recordModel(d1: D1Database, projectId: string, m: NewModel): Promise<Recorded>;
export async function recordModel(d1: D1Database, projectId: string, m: NewModel, condition: WriteCondition): Promise<RecordedUnder>;
export async function recordModel(d1: D1Database, projectId: string, m: NewModel, condition = always): Promise<RecordedUnder> {
  const artifact = JSON.stringify(m.model);
  const bytes = new TextEncoder().encode(artifact).length;
  const [first, ...rest] = artifactParts(artifact);
  for (;;) {
    const { stack, seq } = m.promote ? await rollouts(d1, projectId) : { stack: [], seq: 0 };
    const current = stack.at(-1) ?? null;
    // Served already: another run of the same night (or request) trained and promoted this version first.
    if (m.promote && current === m.model.version && current !== m.comparedWith) return { outcome: 'exists' };
    if (m.promote && current !== m.comparedWith) return { outcome: 'stale', current };
    // A promoted model is stored only with its own rollout at the seq it was appended after.
    const held = condition(15);
    const insert = d1
      .prepare(
        `insert into models (project_id, version, created_at, trained_by, artifact, bytes, confirmed, compared_with, evaluation, decision, reasons, findings, data_read_at, data_read_unknown)
         select ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, coalesce(?14, ${UNKNOWN_READ_SQL}), ?14 is null
         where (?13 is null or exists (select 1 from model_rollouts where project_id = ?1 and seq = ?13 + 1 and action = 'promote' and version = ?2))
           and (${held.sql})
         on conflict do nothing returning version`,
      )
      .bind(
        projectId,
        m.model.version,
        m.at,
        m.trainedBy,
        first,
        bytes,
        m.confirmed,
        m.comparedWith,
        JSON.stringify(m.evaluation),
        m.promote ? 'promoted' : 'rejected',
        JSON.stringify(m.reasons),
        JSON.stringify(m.findings),
        m.promote ? seq : null,
        m.dataReadAt ?? null,
        ...held.values,
      );
    // Whether the condition held, read in the batch's own transaction.
    const check = condition(1);
    const checked = d1.prepare(`select (${check.sql}) as held`).bind(...check.values);
    // The rollout goes first, and only while the version is not stored: the insert after it stores it.
    const serve = m.promote
      ? [appendRollout(d1, projectId, m.at, 'promote', m.model.version, m.reasons.join('; '), { after: seq, unlessStored: true, condition })]
      : [];
    // Only after the row this request inserted (its time and size): a version stored already keeps its own parts.
    const parts = partInserts(d1, projectId, m.model.version, rest, 'created_at = ?5 and bytes = ?6', [m.at, bytes]);
    const [checkedResult, ...results] = await d1.batch([checked, ...serve, insert, ...parts]);
    if (results[serve.length]!.results.length > 0) return { outcome: 'recorded' };
    if (!(checkedResult!.results[0] as { held: number } | undefined)?.held) return { outcome: 'condition_failed' };
    if (!m.promote || (await modelExists(d1, projectId, m.model.version))) return { outcome: 'exists' };
  }
}

export async function modelExists(d1: D1Database, projectId: string, version: string): Promise<boolean> {
  return (await d1.prepare('select 1 from models where project_id = ? and version = ?').bind(projectId, version).first()) !== null;
}

/**
 * Serves a stored model (an admin's decision, which may overrule the gate); the reason is kept.
 * Not when users get it already: pushed twice, a rollback would restore the same model. With
 * `from` (null: retrieval's order), only while that is what users get: a reader who decided on an
 * older page gets `{ served }`, what users get instead, and nothing changes. The append must
 * follow the rollouts it decided on, so a promotion or rollback that came in between (the same
 * promotion sent twice, say) is read and decided on afresh.
 */
export async function promoteModel(
  d1: D1Database,
  projectId: string,
  version: string,
  reason: string,
  at: number,
  from?: string | null,
): Promise<'promoted' | 'already_current' | { served: string | null }> {
  for (;;) {
    const { stack, seq } = await rollouts(d1, projectId);
    const served = stack.at(-1) ?? null;
    if (served === version) return 'already_current';
    if (from !== undefined && served !== from) return { served };
    const { meta } = await appendRollout(d1, projectId, at, 'promote', version, reason, { after: seq }).run();
    if (meta.changes > 0) return 'promoted';
  }
}

/**
 * Stops serving the current model; returns what is served now (null: retrieval's order), or
 * undefined when nothing was served. With `version`, only while that is what users get: a
 * reader who decided on an older page gets `{ served }`, what users get instead, and nothing changes.
 */
export async function rollBack(
  d1: D1Database,
  projectId: string,
  reason: string,
  at: number,
  version?: string,
): Promise<{ from: string; to: string | null } | { served: string } | undefined> {
  // As a promotion: appended after the rollouts it read, else read again, so one that came in
  // between (the nightly gate's) is what is rolled back rather than a rollback lost on replay.
  for (;;) {
    const { stack, seq } = await rollouts(d1, projectId);
    const from = stack.at(-1);
    if (!from) return undefined;
    if (version !== undefined && from !== version) return { served: from };
    const { meta } = await appendRollout(d1, projectId, at, 'rollback', from, reason, { after: seq }).run();
    if (meta.changes > 0) return { from, to: stack.at(-2) ?? null };
  }
}

/**
 * The newest model's night (`createdAt`, which the schedule counts from), and of the model whose
 * training read its data last (`dataReadAt`, by the real clock) the examples it was trained on:
 * retraining waits for the cadence and for new judgements. The two differ after a night run days
 * ahead and a model trained since by `npm run retrain`, dated now.
 */
export interface LastTraining {
  createdAt: number;
  confirmed: number;
  dataReadAt: number;
}

export async function latestTraining(d1: D1Database, projectId: string): Promise<LastTraining | null> {
  return d1
    .prepare(
      `select (select max(created_at) from models where project_id = ?1) as createdAt, confirmed, data_read_at as dataReadAt
       from models where project_id = ?1 order by data_read_at desc, created_at desc limit 1`,
    )
    .bind(projectId)
    .first<LastTraining>();
}

/**
 * Whether retraining has anything the last model (`last`, from `latestTraining`) has not seen:
 * more training examples than it was trained on (`examples`), or an example's answer given or
 * changed since its training read them, even when another taken back leaves the count as it was
 * (an answer on a held-out or curated question, or "unclear", trains nothing). True with no model yet.
 * By when the data was read, not the model's night: a night run ahead of the clock would date
 * answers given after training as seen.
 */
export async function newSinceLastModel(
  d1: D1Database,
  projectId: string,
  last: Pick<LastTraining, 'confirmed' | 'dataReadAt'> | null,
  examples: number,
): Promise<boolean> {
  if (!last || examples > last.confirmed) return true;
  return exampleAnsweredAfter(d1, projectId, last.dataReadAt);
}
