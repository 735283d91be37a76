import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { adminCall, event, newProject, nightsAfterNow, rowsNaming, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

const ERASED = 'u-m';
/** The other user of each shared session: one whose id sorts before the erased one's, one after (a session's row names the greatest). */
const SESSIONS = [
  { sessionId: 'shared-1', other: 'u-a' },
  { sessionId: 'shared-2', other: 'u-z' },
];

const t0 = Date.now() - 3_600_000;
const turn = (who: string, sessionId: string, i: number): TraceInput =>
  trace({ userIdHash: who, sessionId, turnIndex: i, createdAt: t0 + i * 60_000, query: `question ${i} of ${sessionId}` });
const vote = (t: TraceInput, signalType: 'thumbs_up' | 'thumbs_down', i: number) =>
  event({ traceId: t.traceId, sessionId: t.sessionId!, signalType, clientTs: t0 + i * 60_000 + 20_000 });

const sessionRows = async (p: Project) =>
  (
    await env.DB.prepare(
      `select session_id, user_id_hash, traces, scored, negative, requeried, first_at, last_at, purged_traces
       from session_stats where project_id = ? order by session_id`,
    )
      .bind(p.id)
      .all()
  ).results;

const listedSessions = async (p: Project) =>
  (await env.DB.prepare("select key from loop_touched where project_id = ? and kind = 'session'").bind(p.id).all<{ key: string }>()).results.map((r) => r.key);

describe("erasing a user from a session another user's answers are in too", () => {
  it('takes their answers out of the counts of the sessions they shared at once, keeps the other’s, and the run under way counts those again', async () => {
    const p = await newProject();
    // The same session without the erased user: what the counts must be once they are erased.
    const control = await newProject();
    const erased = SESSIONS.map(({ sessionId }) => turn(ERASED, sessionId, 0));
    const firstOthers = SESSIONS.map(({ sessionId, other }) => turn(other, sessionId, 1));
    const firstVotes = [...erased.map((t) => vote(t, 'thumbs_down', 0)), ...firstOthers.map((t) => vote(t, 'thumbs_down', 1))];
    await sendTraffic(p, [...erased, ...firstOthers], firstVotes);
    await sendTraffic(control, firstOthers, firstVotes.slice(erased.length));
    for (const project of [p, control]) expect((await runNightly(env, Date.now() + 1_000, { projects: [project.id] })).done).toBe(true);
    // Each session counted both users' answers.
    expect((await sessionRows(p)).map((r) => r.traces)).toEqual([2, 2]);

    // The next night: the other users answer again, and the run has listed the sessions when the user is erased.
    const later = SESSIONS.map(({ sessionId, other }) => turn(other, sessionId, 2));
    const laterVotes = later.map((t) => vote(t, 'thumbs_up', 2));
    for (const project of [p, control]) await sendTraffic(project, later, laterVotes);
    const night = Date.now() + 86_400_000;
    for (let i = 0; (await listedSessions(p)).length < SESSIONS.length; i++) {
      expect(i).toBeLessThan(10);
      await runNightly(env, night, { projects: [p.id], maxSlices: 1 });
    }
    expect(await adminCall(p, `/users/${ERASED}`, { method: 'DELETE' })).toMatchObject({ status: 200, body: { done: true } });
    // At once: each session names the other user and counts their two answers only.
    expect((await sessionRows(p)).map((r) => [r.user_id_hash, r.traces, r.first_at])).toEqual(SESSIONS.map((s) => [s.other, 2, t0 + 60_000]));
    for (const project of [p, control]) expect((await runNightly(env, night, { projects: [project.id] })).done).toBe(true);

    const expected = await sessionRows(control);
    expect(expected.map((r) => [r.traces, r.scored, r.negative])).toEqual([
      [2, 2, 1],
      [2, 2, 1],
    ]);
    expect(await sessionRows(p)).toEqual(expected);
    expect(await rowsNaming(p.id, [ERASED, ...erased.map((t) => t.traceId)])).toEqual([]);
  });

  it('counts a session naming them again from the answers others left in it, when retention already took theirs', async () => {
    const p = await newProject();
    // The row names the greatest id: theirs, though their answers are gone by the time they are erased.
    const shared = [turn(ERASED, 'purged-shared', 0), turn('u-a', 'purged-shared', 1)];
    const alone = turn(ERASED, 'purged-alone', 0);
    await sendTraffic(p, [...shared, alone], [vote(shared[0]!, 'thumbs_down', 0), vote(shared[1]!, 'thumbs_down', 1), vote(alone, 'thumbs_down', 0)]);
    for (const table of ['traces', 'feedback_events'])
      await env.DB.prepare(`update ${table} set received_at = received_at - ? where project_id = ? and trace_id in (?, ?)`)
        .bind(91 * 86_400_000, p.id, shared[0]!.traceId, alone.traceId)
        .run();
    // Counted, then their answers purged, in the same run.
    expect((await runNightly(env, Date.now() + 1_000, { projects: [p.id] })).done).toBe(true);
    expect((await sessionRows(p)).map((r) => [r.session_id, r.user_id_hash, r.traces, r.purged_traces])).toEqual([
      ['purged-alone', ERASED, 1, 1],
      ['purged-shared', ERASED, 2, 1],
    ]);
    expect(await adminCall(p, `/users/${ERASED}`, { method: 'DELETE' })).toMatchObject({ status: 200, body: { done: true } });
    // What the purged answers counted names no one apart, and stays with the session the other user's answer is in.
    expect((await sessionRows(p)).map((r) => [r.session_id, r.user_id_hash, r.traces, r.negative])).toEqual([['purged-shared', 'u-a', 2, 2]]);
    // The archive of their purged day still holds them: the request to take them out of it names them until the next night has.
    expect(await rowsNaming(p.id, [ERASED])).toEqual([expect.stringMatching(/^archive_erasures: /)]);
    await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
    expect(await rowsNaming(p.id, [ERASED])).toEqual([]);
  });
});
