/**
 * Re-asking in other words, without a language model and for any language the tokenizer splits
 * on spaces: a question frame around the claim, a word or two left out, a clause moved. Crude,
 * but it changes the query key and the BM25 ranking the way a real re-ask does, which is what the
 * loop's rephrase handling and the memory of judged queries must cope with.
 */
import { STOP_WORDS } from '../../shared/terms.ts';
import { pick, type Rng } from './random.ts';

const FRAMES = [
  (q: string) => `Is it true that ${q}?`,
  (q: string) => `what is the evidence that ${q}`,
  (q: string) => `${q} - true or false?`,
  (q: string) => q,
];

const strip = (q: string) => q.replace(/[.?!]+\s*$/, '').trim();
const lowerFirst = (q: string) => (/^[A-Z][a-z]/.test(q) ? q[0]!.toLowerCase() + q.slice(1) : q);

export function paraphrase(r: Rng, query: string): string {
  const words = strip(query).split(/\s+/);
  const content = words.map((w, i) => [w, i] as const).filter(([w]) => !STOP_WORDS.has(w.toLowerCase().replace(/\W/g, '')) && w.length > 3);
  // Leave out one content word (two in longer questions): users rarely retype every term.
  const drop = new Set<number>();
  for (let n = 0; n < (content.length > 8 ? 2 : 1) && content.length > 3; n++) drop.add(pick(r, content)[1]);
  let kept = words.filter((_, i) => !drop.has(i));
  // Move a trailing clause to the front now and then.
  const comma = kept.findIndex((w) => w.endsWith(','));
  if (comma > 0 && comma < kept.length - 2 && r() < 0.5)
    kept = [...kept.slice(comma + 1), ...kept.slice(0, comma + 1).map((w, i, a) => (i === a.length - 1 ? w.slice(0, -1) : w))];
  const text = pick(r, FRAMES)(lowerFirst(kept.join(' ')));
  return text === query ? `${strip(query)}?` : text;
}
