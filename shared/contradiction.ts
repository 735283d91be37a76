/**
 * Whether a follow-up pushes back on the answer before it (seed 000: "whether a follow-up question
 * contradicts something the previous answer stated"): "that's wrong", "are you sure?", "actually,
 * it is…", "不对，…". Phrases, not single words, so a question about something wrong ("what's wrong
 * with my order?", "如果地址填错了怎么办？") or one that starts with "no" ("no refunds for opened
 * items?") or "actually" ("actually, what about shipping?") is not taken for one.
 */

const ENGLISH = [
  // "No, …", "Nope." — a bare "no" opening a question ("no refunds for…?") asks, it does not object.
  /^\s*(no|nope)\s*[,.!]/,
  /^\s*(no|nope)\s+(that|this|it|you)\b/,
  // "That's wrong", "this is not right", "it was incorrect", "that's not what I asked".
  /\b(that|this|it)\s*(?:'s|’s|\s+is|\s+was)\s+(?:just\s+|simply\s+|completely\s+|totally\s+|still\s+)?(wrong|incorrect|false|inaccurate|outdated|out of date|not (right|correct|true|accurate|what i (asked|meant|wanted)))\b/,
  /\byou(?:'re|’re|\s+are)\s+(wrong|mistaken|incorrect)\b/,
  /\b(wrong answer|are you sure|can'?t be right|doesn'?t sound right|doesn'?t seem right|that'?s not it)\b/,
  // "Actually, it is 30 days", "actually no", "actually the deadline is April 30": the user correcting
  // the answer; only "actually" goes with the pushback, the correction is what they ask about.
  /^\s*actually\b(?=[\s,]+(?:no|not|(?:it|that|this)(?:'s|’s|\s+(?:is|was)(?:n'?t|n’t)?)|the(?:\s+[\w-]+){1,3}?\s+(?:is|are|was|were|says|said)(?:n'?t|n’t)?)\b)/,
];

// Chinese: an objection standing as a clause of its own, at the start or after punctuation, with at
// most a subject before it ("这", "你", "答案") and a particle after it ("吧", "吗"), then punctuation
// or the end: "不对，…", "错了。", "你说错了", "这不对吧？". The same words inside a question ("地址填错了
// 怎么办？", "信息不对称", "不准确的地址怎么修改？") say nothing of the answer. "你确定…" opening a clause
// questions it whatever follows.
const CLAUSE_START = '(?<=^|[\\s,.!?;:，。！？；：、…])';
const CLAUSE_END = '(?=$|[\\s,.!?;:，。！？；：、…~])';
const SUBJECT = '(?:(?:这|那)个?|这样|你说的|你讲的|你的?|(?:这个|你的)?(?:回答|答案|说法))?';
const OBJECTION = '(?:也|就|完全|根本|好像)?(?:不对|错了|是错的|不正确|不准确|(?:说|讲|答|搞|弄)错了?|不是这样的?)[吧啊呀吗呢哦]*';
const CHINESE = new RegExp(`${CLAUSE_START}(?:${SUBJECT}${OBJECTION}${CLAUSE_END}|你(?:真的)?确定[吗嘛么]?)`);

/** Whether `followUp`, the next question of a conversation, says the answer before it was wrong. */
export function contradictsAnswer(followUp: string): boolean {
  const text = followUp.normalize('NFKC').toLowerCase();
  return CHINESE.test(text) || ENGLISH.some((pattern) => pattern.test(text));
}

/** The same phrases, each to be removed wherever it stands, in any case. */
const PUSHBACK_PHRASES = [...ENGLISH, CHINESE].map((pattern) => new RegExp(pattern.source, 'gi'));

/**
 * What a follow-up asks once its pushback is left out ("That's wrong. Is it 30 days?" → "Is it 30
 * days?"): the words saying the answer was wrong are not what to search for. Empty when it only
 * pushes back ("Are you sure?"); a question that does not push back is returned as it is.
 */
export function withoutPushback(followUp: string): string {
  if (!contradictsAnswer(followUp)) return followUp;
  let text = followUp.normalize('NFKC');
  for (const pattern of PUSHBACK_PHRASES) text = text.replace(pattern, ' ');
  // What the phrase leaves in front ("No, that's not right. Does…" → ". Does…") goes with it.
  return text.replace(/^[\s\p{P}]+/u, '').trim();
}
