import { Hono } from 'hono';
import * as v from 'valibot';
import { DEAD_LETTERS_LIMIT, DEAD_LETTERS_MAX_LIMIT, type DeadLetterReplay, type DeadLetters } from '../../../shared/admin-api/dead-letters.ts';
import type { AppEnv } from '../../env.ts';
import { replayDeadLetters } from '../../ingest-queue/replay.ts';
import { queuesEvents } from '../../ingest-queue/send.ts';
import { intParam, validQuery } from '../../middleware/valid-query.ts';
import { countDeadLetters, deadLettersOf } from '../../storage/dead-letters.ts';
import { openDb } from '../../storage/sql/db.ts';

export const deadLetterRoutes = new Hono<AppEnv>()
  /**
   * GET /v1/admin/dead-letters?limit=20: queued events the consumer could not write (EVENTS_INGEST =
   * "queue"), kept until replayed (or purged with raw rows), in the order a replay takes them, with how many there are and
   * how events are taken now (the console's empty list says whether any could be waiting).
   * Admin only: they hold what users typed.
   */
  .get('/dead-letters', validQuery(v.strictObject({ limit: intParam(1, DEAD_LETTERS_MAX_LIMIT, DEAD_LETTERS_LIMIT) })), async (c) => {
    const db = openDb(c.env.DB);
    const { projectId } = c.get('auth');
    const [total, letters] = await Promise.all([countDeadLetters(db, projectId), deadLettersOf(db, projectId, c.get('input').limit)]);
    const deadLetters = letters.map(({ projectId: _, message, ...letter }) => ({
      ...letter,
      message: { ...message, rows: message.rows.map(({ ipHash: _, ...row }) => row) },
    }));
    return c.json({ total, deadLetters, ingest: queuesEvents(c.env) ? 'queue' : 'direct' } satisfies DeadLetters);
  })
  /** POST /v1/admin/dead-letters/replay: writes them again (REPLAY_LIMIT a call); those written are forgotten, those failing stay. */
  .post('/dead-letters/replay', async (c) => c.json((await replayDeadLetters(c.env.DB, c.get('auth').projectId)) satisfies DeadLetterReplay));
