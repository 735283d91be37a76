/**
 * `columns` of the events of project ?1 that arrived within `received` (a condition on
 * `e.received_at`), over `feedback_events e`. Events have no index on their arrival alone (each
 * index costs every insert): the type index is walked type by type, each found by one seek,
 * instead of reading every event of the project.
 */
export const eventsReceivedSql = (columns: string, received: string) => `with recursive types (t) as (
    select min(signal_type) from feedback_events where project_id = ?1
    union all select (select min(signal_type) from feedback_events where project_id = ?1 and signal_type > t) from types where t is not null
  )
  select ${columns} from types cross join feedback_events e on e.project_id = ?1 and e.signal_type = types.t and ${received}`;
