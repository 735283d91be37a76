/**
 * A trace's place in its session's conversation (from 1), as a window function over `traces`: the
 * order attribution reads turns in (the backend's turn index, then the time answered; a regenerate
 * repeats its turn's index).
 */
export const TURN_POSITION_SQL = 'row_number() over (partition by session_id order by coalesce(turn_index, 1e9), created_at, trace_id)';
