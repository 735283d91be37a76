/**
 * Whether a follow-up pushes back on the answer before it (seed 000: "whether a follow-up question
 * contradicts something the previous answer stated"): "that's wrong", "are you sure?", "actually,
 * it is…", "不对". Phrases, not single words, so a question about something wrong ("what's wrong
 * with my order?") or one that starts with "no" ("no refunds for opened items?") is not taken for one.
 */

const ENGLISH = [
  // "No, …", "Nope." — a bare "no" opening a question ("no refunds for…?") asks, it does not object.
  /^\s*(no|nope)\s*[,.!]/,
  /^\s*(no|nope)\s+(that|this|it|you)\b/,
  // "That's wrong", "this is not right", "it was incorrect", "that's not what I asked".
  /\b(that|this|it)\s*(?:'s|’s|\s+is|\s+was)\s+(?:just\s+|simply\s+|completely\s+|totally\s+|still\s+)?(wrong|incorrect|false|inaccurate|outdated|out of date|not (right|correct|true|accurate|what i (asked|meant|wanted)))\b/,
  /\byou(?:'re|’re|\s+are)\s+(wrong|mistaken|incorrect)\b/,
  /\b(wrong answer|are you sure|can'?t be right|doesn'?t sound right|doesn'?t seem right|that'?s not it)\b/,
  // "Actually, it is 30 days" — the user correcting the answer in their next question.
  /^\s*actually\b/,
];
const CHINESE = /不对|错了|不正确|不准确|说错|搞错|不是这样|你确定/;

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
