import { GUESS_WHY_EN, type GuessWhy, guessWhyText } from '../../shared/admin-api/guess-why.ts';

/** How each number of an English sentence reads back: its pattern as `guessWhyValues` writes it, and its value. */
const NUMBERS: Record<string, readonly [pattern: string, value: (s: string) => number]> = {
  share: ['(\\d+)%', (s) => Number(s) / 100],
  rank: ['(\\d+)', Number],
};

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The English sentences mining wrote before it stored codes, each read back as its code: the
 * sentences are the codes' own (GUESS_WHY_EN), their placeholders read as numbers. `text` is left
 * out: it would read any sentence.
 */
const SENTENCES = Object.entries(GUESS_WHY_EN)
  .filter(([code]) => code !== 'text')
  .map(([code, template]) => {
    // Odd parts are the placeholders' names.
    const parts = template.split(/\{(\w+)\}/);
    const names = parts.filter((_, i) => i % 2 === 1);
    const pattern = new RegExp(`^${parts.map((part, i) => (i % 2 ? NUMBERS[part]![0] : escaped(part))).join('')}$`);
    return (stored: string): GuessWhy | undefined => {
      const m = stored.match(pattern);
      return m ? ({ code, ...Object.fromEntries(names.map((name, i) => [name, NUMBERS[name]![1](m[i + 1]!)])) } as GuessWhy) : undefined;
    };
  });

/** A code stored as JSON, or undefined for anything else. */
function storedCode(stored: string): GuessWhy | undefined {
  if (!stored.startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(stored) as { code?: unknown };
    return typeof parsed.code === 'string' && parsed.code in GUESS_WHY_EN ? (parsed as GuessWhy) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A `guess_why` column as a code: stored as its JSON, or the English sentence a row mined before
 * codes were stored holds, read back as the code it was worded from.
 */
export function asGuessWhy(stored: string): GuessWhy {
  for (const read of [storedCode, ...SENTENCES]) {
    const code = read(stored);
    if (code) return code;
  }
  return { code: 'text', text: stored };
}

/** A `guess_why` column as the API answers it: the English sentence it has always given, and the code it is worded from. */
export function guessWhyFields(column: string): { guessWhy: string; guessWhyCode: GuessWhy } {
  const guessWhyCode = asGuessWhy(column);
  return { guessWhy: guessWhyText(guessWhyCode), guessWhyCode };
}
