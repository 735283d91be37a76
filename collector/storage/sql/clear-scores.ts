/**
 * `isClearlyBad` and `isClearlyGood` in SQL, over a weighted score and the setting's parameter:
 * the mining, the counts of bad answers, the eval sets and the worst traces all draw the line here.
 */
export const clearlyBadSql = (score: string, bad: string) => `${score} < ${bad}`;
export const clearlyGoodSql = (score: string, good: string) => `${score} >= ${good}`;
/** Clearly bad or clearly good: an answer mining learns from. */
export const clearlyJudgedSql = (score: string, bad: string, good: string) => `(${clearlyBadSql(score, bad)} or ${clearlyGoodSql(score, good)})`;
