/**
 * Seeded randomness for the simulation: every draw comes from one generator made from the run's
 * seed, so a run is reproducible and other seeds give the spread.
 */
import { random } from '../../scripts/seed/traffic.ts';

/** Uniform on [0, 1). */
export type Rng = () => number;

export const rng = (seed: number): Rng => random(seed);

export const chance = (r: Rng, p: number): boolean => r() < p;
export const pick = <T>(r: Rng, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
export const between = (r: Rng, lo: number, hi: number): number => Math.round(lo + r() * (hi - lo));

/** Fisher-Yates on a copy. */
export function shuffled<T>(r: Rng, list: readonly T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** FNV-1a, 32 bits: a stable hash, so a split depends on the id alone and never on the seed. */
export function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) / 2 ** 32;
}
