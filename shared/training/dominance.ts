/**
 * A training batch one session, user or IP dominates is refused (seed 000: one confused user or
 * one abusive session can poison a batch). Reviewers confirm each item, but they see one item at a
 * time: a batch that mostly came from one source teaches that source's view, right or wrong.
 */
import type { Confirmed } from './data.ts';

export interface Dominance {
  kind: 'session' | 'user' | 'ip';
  id: string;
  share: number;
}

/** The origin with the largest share of the batch's examples, if it exceeds `maxShare`. */
export function dominantOrigin(confirmed: readonly Confirmed[], maxShare: number): Dominance | null {
  if (confirmed.length === 0) return null;
  let worst: Dominance | null = null;
  for (const kind of ['session', 'user', 'ip'] as const) {
    const counts = new Map<string, number>();
    for (const c of confirmed) {
      const ids = kind === 'session' ? c.origins?.sessions : kind === 'user' ? c.origins?.users : c.origins?.ips;
      for (const id of new Set(ids ?? [])) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    for (const [id, n] of counts) {
      const share = n / confirmed.length;
      if (share > maxShare && (!worst || share > worst.share)) worst = { kind, id, share };
    }
  }
  return worst;
}
