/**
 * Erasure's part of the dead letters (`dead_letters`): a kept message holds a request's events as
 * rows (`{ rows, dropped }`), and a replay would store those about erased answers again. Statements
 * for erasure's transaction, with the project as ?1 and the batch's trace ids (a JSON array) as ?2.
 */

/** Whether a message's row (`r`, of json_each over its rows) is about one of the erased traces. */
const erasedRow = `r.value ->> 'traceId' in (select value from json_each(?2))`;

/** Whether the dead letter holds an event about an erased trace. */
const holdsErased = `exists (select 1 from json_each(dead_letters.message, '$.rows') r where ${erasedRow})`;

/** Whether every event it holds is about one (a row with no trace id, one the schema refuses, is not). */
const onlyErased = `not exists (select 1 from json_each(dead_letters.message, '$.rows') r where not coalesce(${erasedRow}, false))`;

/**
 * Takes the erased traces' events out of the project's dead letters: one left with none goes, the
 * drop report it carried kept as its write would have kept it, on `day` (the client's count of what
 * it lost, which names no one, keyed as its write would key it); another is kept with its other
 * events.
 */
export function eraseFromDeadLetters(d1: D1Database, projectId: string, traceIds: string, day: string) {
  return {
    deadLetterDrops: d1
      .prepare(
        `insert into client_drop_reports (project_id, event_id, day, dropped)
         select project_id, coalesce(message ->> '$.firstEventId', message ->> '$.rows[0].eventId'), ?3, message ->> '$.dropped' from dead_letters
         where project_id = ?1 and message ->> '$.dropped' > 0 and ${holdsErased} and ${onlyErased}
         on conflict (project_id, event_id) do update set dropped = max(dropped, excluded.dropped)`,
      )
      .bind(projectId, traceIds, day),
    deadLetters: d1.prepare(`delete from dead_letters where project_id = ?1 and ${holdsErased} and ${onlyErased}`).bind(projectId, traceIds),
    // In their order: a message queued before it carried its report's key has it keyed by the first event left.
    deadLetterEvents: d1
      .prepare(
        `update dead_letters set message = json_set(message, '$.rows',
           (select json_group_array(json(r.value) order by r.key) from json_each(dead_letters.message, '$.rows') r where not coalesce(${erasedRow}, false)))
         where project_id = ?1 and ${holdsErased}`,
      )
      .bind(projectId, traceIds),
  };
}
