import { describe, expect, it } from 'vitest';
import type { ReviewItem, Verdict } from '../../api/types.ts';
import { type AnswerApi, AnswerLedger } from './answer-ledger.ts';

type Held = Pick<ReviewItem, 'id' | 'status' | 'verdict' | 'note'>;

/** A server of one item whose answers wait until released; records what each was given against. */
function heldServer() {
  const item: Held = { id: 'a', status: 'pending', verdict: null, note: null };
  const against: (Verdict | null)[] = [];
  const waiting: (() => void)[] = [];
  const api: AnswerApi = {
    async answer(_id, verdict, note, ifVerdict) {
      await new Promise<void>((r) => waiting.push(r));
      if (item.verdict !== ifVerdict) throw Object.assign(new Error('answered meanwhile'), { code: 'review_item_changed' });
      against.push(ifVerdict);
      Object.assign(item, { verdict, note, status: verdict === null ? 'pending' : 'answered' });
      return item;
    },
    item: async () => ({ ...item }) as ReviewItem,
  };
  const release = async () => {
    while (!waiting.length) await new Promise((r) => setTimeout(r, 0));
    waiting.shift()!();
  };
  return { item, against, api, release, list: () => ({ ...item }) };
}

describe('AnswerLedger', () => {
  it('gives the answer on its way for an item, as it leaves the item, until it is saved', async () => {
    const server = heldServer();
    const ledger = new AnswerLedger(server.api);
    ledger.listed(server.list(), ledger.asking());
    const sent = ledger.send(server.item as ReviewItem, 'relevant', 'on topic');
    expect(ledger.onItsWay('a')?.to).toEqual({ status: 'answered', verdict: 'relevant', note: 'on topic' });
    expect(ledger.anySending()).toBe(true);
    // An undo after it: the last one is what the item is left with.
    const undone = ledger.send(server.item as ReviewItem, null, null);
    expect(ledger.onItsWay('a')?.to).toEqual({ status: 'pending', verdict: null, note: null });
    await server.release();
    await sent;
    await server.release();
    await undone;
    expect(ledger.onItsWay('a')).toBeUndefined();
    expect(ledger.anySending()).toBe(false);
  });

  it('holds to what the server said to an answer over a list asked for before it arrived, and to a list asked for after', async () => {
    const server = heldServer();
    const ledger = new AnswerLedger(server.api);
    ledger.listed(server.list(), ledger.asking());
    const sent = ledger.send(server.item as ReviewItem, 'relevant', null);
    // A list asked for while the answer is on its way, built before it landed, arriving after it.
    const crossing = ledger.asking();
    const built = server.list();
    await server.release();
    await sent;
    expect(ledger.listed(built, crossing)).toEqual({ status: 'answered', verdict: 'relevant', note: null });
    // Another reviewer answers it since; a list asked for now shows it, and an answer is given against it.
    Object.assign(server.item, { verdict: 'unclear', note: 'theirs' });
    expect(ledger.listed(server.list(), ledger.asking())).toEqual({ status: 'answered', verdict: 'unclear', note: 'theirs' });
    const again = ledger.send(server.item as ReviewItem, 'not_relevant', null);
    await server.release();
    await again;
    expect(server.against).toEqual([null, 'unclear']);
  });

  it('names the items whose answers are on their way, with what the server held before them, until they land', async () => {
    const server = heldServer();
    const ledger = new AnswerLedger(server.api);
    ledger.listed(server.list(), ledger.asking());
    const item = server.list() as ReviewItem;
    const sent = ledger.send(item, 'relevant', null);
    expect(ledger.onTheirWay()).toEqual([{ item, held: { status: 'pending', verdict: null, note: null } }]);
    await server.release();
    await sent;
    expect(ledger.onTheirWay()).toEqual([]);
  });
});
