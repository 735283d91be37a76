import { sha256Hex } from '../../../shared/hex.ts';

/**
 * The lists a run keeps in `loop_touched` to mine question by question, and the key of each:
 * `judged` (query key, U+0001, trace id), `query` (query key, U+0001), `question` (the
 * question's id, then its query key) and `mined` (trace id, U+0001, item id: the rows earlier
 * runs stored for the judged traces, which each slice takes back for its own traces without an
 * index on trace ids). The mine stage writes and walks them; erasure takes a user's keys out.
 */

/** Hex characters at the start of an item id that name its question: item ids sort by question. */
export const QUESTION_ID_LENGTH = 16;

/** The start of every item id of one question (query key): its hash, so that a question's items sit together. */
export const questionIdOf = async (key: string): Promise<string> => (await sha256Hex(key)).slice(0, QUESTION_ID_LENGTH);

/** Between a query key and a trace id in the keys of judged traces: below any character of a key. */
export const SEPARATOR = '\u0001';

/** A judged trace's key, in the `judged` list. */
export const judgedKey = (queryKey: string, traceId: string) => queryKey + SEPARATOR + traceId;
/** A query key's row in the `query` list: followed by the separator, so that an empty key is listed too. */
export const queryRowKey = (queryKey: string) => queryKey + SEPARATOR;
/** A query key's row in the `question` list: after its question's id, in the order of item ids. */
export const questionRowKey = async (queryKey: string) => (await questionIdOf(queryKey)) + queryKey;

/** A two-part key (`judged`: query key then trace id; `mined`: trace id then item id), in SQL from SQL expressions. */
export const pairKeySql = (first: string, second: string) => `${first} || char(1) || ${second}`;

/** The two-part keys of list `alias` whose first part is `first` (a SQL expression): between it with the separator and the character after. */
export const keysUnderSql = (alias: string, first: string) => `${alias}.key > ${first} || char(1) and ${alias}.key < ${first} || char(2)`;

/** The query key a `question` row's key (a SQL expression) names. */
export const questionRowQueryKeySql = (key: string) => `substr(${key}, ${QUESTION_ID_LENGTH + 1})`;

/** The query key a `query` row's key (a SQL expression) names: without its separator. */
export const queryRowQueryKeySql = (key: string) => `substr(${key}, 1, length(${key}) - 1)`;

/** The item id of a listed row `m`, in SQL. */
export const MINED_ITEM_SQL = 'substr(m.key, instr(m.key, char(1)) + 1)';
