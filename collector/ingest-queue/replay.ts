import type { DeadLetterReplay } from '../../shared/admin-api/dead-letters.ts';
import { countDeadLetters, deadLettersOf, dropDeadLetter, failedAgain } from '../storage/dead-letters.ts';
import { openDb } from '../storage/sql/db.ts';
import { errorText, writeQueued } from './write.ts';

/** Dead letters one replay writes at most: each takes two D1 queries, far within an invocation's (d1-limits.ts). */
export const REPLAY_LIMIT = 100;

/**
 * Writes a project's dead letters again, each on its own with the same idempotent insert as the
 * consumer: one written is forgotten, one that fails again stays with its new error.
 */
export async function replayDeadLetters(d1: D1Database, projectId: string): Promise<DeadLetterReplay> {
  const db = openDb(d1);
  const written: string[] = [];
  const failed: DeadLetterReplay['failed'] = [];
  for (const letter of await deadLettersOf(db, projectId, REPLAY_LIMIT)) {
    try {
      await writeQueued(db, [letter.message]);
    } catch (err) {
      const error = errorText(err);
      await failedAgain(db, projectId, letter.id, error);
      failed.push({ id: letter.id, error });
      continue;
    }
    await dropDeadLetter(db, projectId, letter.id);
    written.push(letter.id);
  }
  return { written, failed, remaining: await countDeadLetters(db, projectId) };
}
