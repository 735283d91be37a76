import { describe, expect, it } from 'vitest';
import type { HeldReason, ReviewItem, ReviewQueue, ReviewStatus, Verdict } from '../../api/types.ts';
import { AnswerLedger } from './answer-ledger.ts';
import { PAGE_SIZE, type ReviewApi, ReviewSession } from './review-session.ts';
import { UndoHistory } from './undo-history.ts';

const item = (n: number): ReviewItem => ({
  id: `i${n}`,
  query: `query ${n}`,
  chunk: { chunkId: `c${n}`, sourceDocId: 'doc.md', sourceDocVersion: null, text: 'text' },
  rank: 1,
  score: 0.5,
  candidate: 'negative',
  guess: 'unclear',
  guessWhy: 'why',
  guessWhyCode: { code: 'text', text: 'why' },
  expectedValue: 1,
  evidence: ['e'],
  evidenceCodes: [{ code: 'text', text: 'e' }],
  traceCount: 1,
  traceIds: [`t${n}`],
  status: 'pending',
  verdict: null,
  note: null,
  answeredAt: null,
  heldOut: n === 2,
  curated: n === 3,
  heldFor: null,
});

/** Why the collector holds item `n` of a held list: each reason in turn. */
const heldFor = (n: number): HeldReason => (['threshold', 'budget', 'curated'] as const)[n % 3]!;

/** A server holding `n` items of one status, recording what it was sent; `failNext` makes the next answer fail. */
function fakeServer(n: number, status: ReviewStatus = 'pending') {
  const items = Array.from({ length: n }, (_, i) => ({ ...item(i), status, heldFor: status === 'held' ? heldFor(i) : null }));
  const sent: [string, Verdict | null, string | null][] = [];
  const tracesAsked: string[] = [];
  let failNext = false;
  const api: ReviewApi = {
    async queue(status: ReviewStatus, limit: number, offset = 0): Promise<ReviewQueue> {
      if (limit > 500) throw new Error('400 limit'); // as the API
      const listed = items.filter((i) => i.status === status).slice(offset, offset + limit);
      const count = (s: ReviewStatus) => items.filter((i) => i.status === s).length;
      const heldFor = (r: HeldReason) => items.filter((i) => i.status === 'held' && i.heldFor === r).length;
      return {
        items: structuredClone(listed),
        budget: {
          itemsPerWeek: 90,
          answeredLastWeek: 3,
          pending: count('pending'),
          held: count('held'),
          heldFor: { threshold: heldFor('threshold'), budget: heldFor('budget'), curated: heldFor('curated') },
          minutesPerWeek: 30,
          secondsPerItem: 20,
          miningThreshold: 0.1,
        },
        training: { confirmed: 29, examples: 29, trainedOn: 0, minimum: 30, ready: false },
      };
    },
    async answer(id, verdict, note, ifVerdict) {
      if (failNext) {
        failNext = false;
        throw new Error('offline');
      }
      const it = items.find((i) => i.id === id)!;
      // As the API: refused when answered meanwhile with another verdict than the one the answer was given against, unless with this very answer.
      if (ifVerdict !== undefined && it.verdict !== ifVerdict && !(it.verdict === verdict && it.note === (verdict === null ? null : note)))
        throw Object.assign(new Error('answered meanwhile'), { code: 'review_item_changed' });
      sent.push([id, verdict, note]);
      Object.assign(it, { verdict, note, status: verdict === null ? 'pending' : 'answered', heldFor: null });
      return it;
    },
    async traces(id) {
      tracesAsked.push(id);
      return [];
    },
    async item(id) {
      const found = items.find((i) => i.id === id);
      if (!found) throw new Error('404 item_not_found');
      return structuredClone(found);
    },
  };
  /** Another reviewer answers an item, out of this session's sight. */
  const answerElsewhere = (id: string, verdict: Verdict) => Object.assign(items.find((i) => i.id === id)!, { verdict, status: 'answered' });
  return { api, sent, tracesAsked, failOnce: () => (failNext = true), answerElsewhere };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

/** `fakeServer`, its answers held until `release`. */
function slowServer(n: number) {
  const server = fakeServer(n);
  let release!: () => void;
  const slow = new Promise<void>((r) => (release = r));
  const slowAnswers: ReviewApi = {
    ...server.api,
    answer: async (...args) => {
      await slow;
      return server.api.answer(...args);
    },
  };
  return { server, slowAnswers, release };
}

/** The first item answered 'relevant' on a slow server, and the list opened again on the same ledger while that answer is on its way. */
async function answeredThenListedAgain() {
  const { server, slowAnswers, release } = slowServer(3);
  const ledger = new AnswerLedger(slowAnswers);
  const first = new ReviewSession(slowAnswers, 'pending', () => {}, ledger);
  await first.load();
  const answering = first.answer('relevant', null);
  const again = new ReviewSession(slowAnswers, 'pending', () => {}, ledger);
  await again.load();
  return { server, release, answering, again };
}

describe('ReviewSession', () => {
  it('moves to the next item at once, sends the answer, and keeps budget and training in step', async () => {
    const server = fakeServer(4);
    const s = new ReviewSession(server.api, 'pending', () => {});
    await s.load();
    const sending = s.answer('relevant', 'on topic');
    expect(s.current?.id).toBe('i1');
    await sending;
    expect(server.sent).toEqual([['i0', 'relevant', 'on topic']]);
    expect(s.budget?.answeredLastWeek).toBe(4);
    expect(s.training).toMatchObject({ confirmed: 30, examples: 30, ready: true });
    await s.answer('unclear', null);
    expect(s.training).toMatchObject({ confirmed: 30, examples: 30 });
    // i2's question is held out: its answer labels the eval sets, so it is not a training example.
    await s.answer('not_relevant', null);
    expect(s.training).toMatchObject({ confirmed: 31, examples: 30, ready: true });
    // i3's question is in the curated suite: its answer trains nothing either, as the server counts.
    await s.answer('relevant', null);
    expect(s.training).toMatchObject({ confirmed: 32, examples: 30, ready: true });
  });

  it('undoes the last answer: the item waits again and the reviewer is back on it', async () => {
    const server = fakeServer(3);
    const s = new ReviewSession(server.api, 'pending', () => {});
    await s.load();
    await s.answer('not_relevant', null);
    await s.answer('relevant', null);
    expect(await s.undo()).toBe(true);
    expect(s.current).toMatchObject({ id: 'i1', status: 'pending', verdict: null });
    expect(server.sent.at(-1)).toEqual(['i1', null, null]);
    expect(await s.undo()).toBe(true);
    expect(s.current?.id).toBe('i0');
    expect(await s.undo()).toBe(false);
    expect(s.budget?.answeredLastWeek).toBe(3);
  });

  it('keeps the waiting counts in step: an answer takes the item off its list, an undo puts a first answer back as pending', async () => {
    const server = fakeServer(3);
    const s = new ReviewSession(server.api, 'pending', () => {});
    await s.load();
    expect(s.budget).toMatchObject({ pending: 3, held: 0 });
    await s.answer('relevant', null);
    await s.answer('unclear', null);
    expect(s.budget).toMatchObject({ pending: 1, held: 0 });
    // Changing an answer moves nothing between the lists.
    s.previous();
    await s.answer('not_relevant', null);
    expect(s.budget).toMatchObject({ pending: 1, held: 0 });
    await s.undo();
    await s.undo();
    expect(s.budget).toMatchObject({ pending: 2, held: 0 });
    expect(s.budget?.pending).toBe((await server.api.queue('pending', 5)).budget.pending);

    const held = fakeServer(3, 'held');
    const h = new ReviewSession(held.api, 'held', () => {});
    await h.load();
    expect(h.budget).toMatchObject({ pending: 0, held: 3, heldFor: { threshold: 1, budget: 1, curated: 1 } });
    // Each held item leaves the count of the reason the collector gave it.
    await h.answer('relevant', null);
    expect(h.budget).toMatchObject({ pending: 0, held: 2, heldFor: { threshold: 0, budget: 1, curated: 1 } });
    await h.answer('unclear', null);
    expect(h.budget).toMatchObject({ pending: 0, held: 1, heldFor: { threshold: 0, budget: 0, curated: 1 } });
    await h.undo();
    expect(h.budget).toMatchObject({ pending: 1, held: 1, heldFor: { threshold: 0, budget: 0, curated: 1 } });
    const { pending, held: heldNow, heldFor: heldForNow } = (await held.api.queue('held', 5)).budget;
    expect(h.budget).toMatchObject({ pending, held: heldNow, heldFor: heldForNow });
  });

  it('undo of an answer on a held item puts it back as pending, as the API does', async () => {
    const server = fakeServer(2, 'held');
    const s = new ReviewSession(server.api, 'held', () => {});
    await s.load();
    await s.answer('unclear', 'cannot tell');
    expect(await s.undo()).toBe(true);
    expect(s.current).toMatchObject({ id: 'i0', status: 'pending', verdict: null, note: null });
    expect(server.sent).toEqual([
      ['i0', 'unclear', 'cannot tell'],
      ['i0', null, null],
    ]);
    expect(s.budget?.answeredLastWeek).toBe(3);
    expect(s.training?.confirmed).toBe(29);
  });

  it('brings back, with its answer, an item answered meanwhile elsewhere instead of overwriting it; answered again, it is replaced', async () => {
    const server = fakeServer(3);
    const s = new ReviewSession(server.api, 'pending', () => {});
    await s.load();
    server.answerElsewhere('i0', 'relevant');
    await expect(s.answer('not_relevant', null)).rejects.toMatchObject({ code: 'review_item_changed' });
    expect(server.sent).toEqual([]);
    expect(s.current).toMatchObject({ id: 'i0', status: 'answered', verdict: 'relevant' });
    expect(s.canUndo).toBe(false);
    await s.answer('not_relevant', null);
    expect(server.sent).toEqual([['i0', 'not_relevant', null]]);
    // An undo of it finding yet another answer there leaves that one, with nothing left to undo.
    server.answerElsewhere('i0', 'unclear');
    await expect(s.undo()).rejects.toMatchObject({ code: 'review_item_changed' });
    expect(s.items[0]).toMatchObject({ verdict: 'unclear' });
    expect(s.canUndo).toBe(false);
  });

  it("takes an answer given after one whose response was lost, though that one was saved: it is this session's own, not one given elsewhere", async () => {
    const server = fakeServer(3);
    let loseNext = true;
    const lossy: ReviewApi = {
      ...server.api,
      // The answer reaches the server, and its response is lost on the way back.
      answer: async (id, verdict, note, ifVerdict) => {
        const answered = await server.api.answer(id, verdict, note, ifVerdict);
        if (!loseNext) return answered;
        loseNext = false;
        throw new Error('offline');
      },
    };
    const s = new ReviewSession(lossy, 'pending', () => {});
    await s.load();
    await expect(s.answer('relevant', null)).rejects.toThrow('offline');
    expect(s.current).toMatchObject({ id: 'i0', verdict: null });
    await s.answer('not_relevant', 'wrong topic');
    expect(server.sent).toEqual([
      ['i0', 'relevant', null],
      ['i0', 'not_relevant', 'wrong topic'],
    ]);
    expect(s.items[0]).toMatchObject({ status: 'answered', verdict: 'not_relevant' });
    expect(s.canUndo).toBe(true);
  });

  it('leaves nothing of an item answered meanwhile elsewhere to undo: an earlier answer of its own taken back would take back that one', async () => {
    const server = fakeServer(3);
    const s = new ReviewSession(server.api, 'pending', () => {});
    await s.load();
    await s.answer('relevant', null);
    s.previous();
    server.answerElsewhere('i0', 'unclear');
    await expect(s.answer('not_relevant', null)).rejects.toMatchObject({ code: 'review_item_changed' });
    expect(s.current).toMatchObject({ id: 'i0', verdict: 'unclear' });
    expect(s.canUndo).toBe(false);
    expect(await s.undo()).toBe(false);
    expect(server.sent).toEqual([['i0', 'relevant', null]]);
  });

  it("sends an answer given on another list opened while the first was on its way after it, against what it saved, not as another reviewer's", async () => {
    const server = fakeServer(2);
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    let deliverList!: () => void;
    const listLate = new Promise<void>((r) => (deliverList = r));
    const slowFirst: ReviewApi = {
      ...server.api,
      answer: async (...args) => {
        if (args[1] === 'relevant') await slow;
        return server.api.answer(...args);
      },
    };
    const ledger = new AnswerLedger(slowFirst);
    const first = new ReviewSession(slowFirst, 'pending', () => {}, ledger);
    await first.load();
    const answering = first.answer('relevant', null);
    // The reviewer goes back and forward: a new list, read while the answer is on its way, arrives after it landed.
    const lateList: ReviewApi = {
      ...slowFirst,
      queue: async (...args) => {
        const list = await server.api.queue(...args);
        await listLate;
        return list;
      },
    };
    const again = new ReviewSession(lateList, 'pending', () => {}, ledger);
    const loading = again.load();
    release();
    await answering;
    deliverList();
    await loading;
    // The list was built before the answer landed: the item shows what the server said to the answer, not the list.
    expect(again.current?.id).toBe('i1');
    again.previous();
    expect(again.current).toMatchObject({ id: 'i0', status: 'answered', verdict: 'relevant' });
    await again.answer('not_relevant', null);
    expect(server.sent).toEqual([
      ['i0', 'relevant', null],
      ['i0', 'not_relevant', null],
    ]);
  });

  it('shows an item on a list fetched while its answer is on its way as the reviewer answered it, past it, the counts in step', async () => {
    const { server, slowAnswers, release } = slowServer(3);
    const ledger = new AnswerLedger(slowAnswers);
    const first = new ReviewSession(slowAnswers, 'pending', () => {}, ledger);
    await first.load();
    const answering = first.answer('not_relevant', 'off topic');
    // The reviewer goes to another list and back while it is on its way: the server lists it waiting still.
    const again = new ReviewSession(slowAnswers, 'pending', () => {}, ledger);
    await again.load();
    expect(again.current?.id).toBe('i1');
    expect(again.items[0]).toMatchObject({ id: 'i0', status: 'answered', verdict: 'not_relevant', note: 'off topic' });
    expect(again.budget).toMatchObject({ pending: 2, answeredLastWeek: 4 });
    expect(again.training).toMatchObject({ confirmed: 30 });
    release();
    await answering;
    expect(again.items[0]).toMatchObject({ id: 'i0', status: 'answered', verdict: 'not_relevant' });
    expect(server.sent).toEqual([['i0', 'not_relevant', 'off topic']]);
  });

  it('brings an item shown with its answer on its way back as listed, the reviewer on it, when that answer is not saved', async () => {
    const { server, release, answering, again } = await answeredThenListedAgain();
    again.next();
    expect(again.current?.id).toBe('i2');
    server.failOnce();
    release();
    await expect(answering).rejects.toThrow('offline');
    await settle();
    expect(again.current).toMatchObject({ id: 'i0', status: 'pending', verdict: null });
    expect(again.budget).toMatchObject({ pending: 3, answeredLastWeek: 3 });
    expect(again.training).toMatchObject({ confirmed: 29 });
  });

  it('brings an item shown with its answer on its way back with the answer found there when it was answered meanwhile elsewhere', async () => {
    const { server, release, answering, again } = await answeredThenListedAgain();
    server.answerElsewhere('i0', 'unclear');
    release();
    await expect(answering).rejects.toMatchObject({ code: 'review_item_changed' });
    await settle();
    expect(again.current).toMatchObject({ id: 'i0', status: 'answered', verdict: 'unclear' });
    // Answered again, knowingly: given against the answer found there.
    await again.answer('not_relevant', null);
    expect(server.sent).toEqual([['i0', 'not_relevant', null]]);
  });

  it('adds to the answered list, first, an item answered on another list while the answered list was fetched before its answer landed', async () => {
    const { server, slowAnswers, release } = slowServer(3);
    const ledger = new AnswerLedger(slowAnswers);
    const waiting = new ReviewSession(slowAnswers, 'pending', () => {}, ledger);
    await waiting.load();
    const answering = waiting.answer('relevant', 'on topic');
    const answered = new ReviewSession(slowAnswers, 'answered', () => {}, ledger);
    await answered.load();
    expect(answered.current).toMatchObject({ id: 'i0', status: 'answered', verdict: 'relevant', note: 'on topic' });
    expect(answered.budget).toMatchObject({ pending: 2, answeredLastWeek: 4 });
    release();
    await answering;
    expect(answered.items.map((i) => i.id)).toEqual(['i0']);
    expect(server.sent).toEqual([['i0', 'relevant', 'on topic']]);
  });

  it('brings an item added to the answered list back unanswered, the reviewer on it, when its answer is not saved', async () => {
    const { server, slowAnswers, release } = slowServer(3);
    const ledger = new AnswerLedger(slowAnswers);
    const waiting = new ReviewSession(slowAnswers, 'pending', () => {}, ledger);
    await waiting.load();
    const answering = waiting.answer('relevant', null);
    const answered = new ReviewSession(slowAnswers, 'answered', () => {}, ledger);
    await answered.load();
    server.failOnce();
    release();
    await expect(answering).rejects.toThrow('offline');
    await settle();
    expect(answered.current).toMatchObject({ id: 'i0', status: 'pending', verdict: null });
    expect(answered.budget).toMatchObject({ pending: 3, answeredLastWeek: 3 });
  });

  it('adds back to the waiting list, in its place, an item whose undo was on its way when the list was fetched', async () => {
    const server = fakeServer(4);
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const slowUndo: ReviewApi = {
      ...server.api,
      answer: async (...args) => {
        if (args[1] === null) await slow;
        return server.api.answer(...args);
      },
    };
    const ledger = new AnswerLedger(slowUndo);
    const history = new UndoHistory();
    const first = new ReviewSession(slowUndo, 'pending', () => {}, ledger, history);
    await first.load();
    first.next();
    await first.answer('relevant', null);
    const undoing = first.undo();
    const again = new ReviewSession(slowUndo, 'pending', () => {}, ledger, history);
    await again.load();
    // The server lists i1 after i0 once the undo lands: there it is.
    expect(again.items.map((i) => i.id)).toEqual(['i0', 'i1', 'i2', 'i3']);
    again.next();
    expect(again.current).toMatchObject({ id: 'i1', status: 'pending', verdict: null });
    expect(again.budget).toMatchObject({ pending: 4 });
    release();
    await undoing;
    expect(server.sent).toEqual([
      ['i1', 'relevant', null],
      ['i1', null, null],
    ]);
  });

  it('undoes on another list the last answer given on the one before, and shows that item there', async () => {
    for (const status of ['held', 'answered'] as const) {
      const server = fakeServer(3);
      const ledger = new AnswerLedger(server.api);
      const history = new UndoHistory();
      const waiting = new ReviewSession(server.api, 'pending', () => {}, ledger, history);
      await waiting.load();
      await waiting.answer('not_relevant', 'off topic');
      await waiting.answer('relevant', null);
      const other = new ReviewSession(server.api, status, () => {}, ledger, history);
      await other.load();
      expect(other.canUndo, status).toBe(true);
      expect(await other.undo(), status).toBe(true);
      expect(server.sent.at(-1), status).toEqual(['i1', null, null]);
      expect(other.current, status).toMatchObject({ id: 'i1', status: 'pending', verdict: null });
      expect(await other.undo(), status).toBe(true);
      expect(server.sent.at(-1), status).toEqual(['i0', null, null]);
      expect(other.current, status).toMatchObject({ id: 'i0', status: 'pending', verdict: null, note: null });
      expect(await other.undo(), status).toBe(false);
      // Each item is shown once, where the reviewer was.
      expect(new Set(other.items.map((i) => i.id)).size, status).toBe(other.items.length);
    }
  });

  it('sends an undo only after the answer it takes back, so the server ends with the item waiting', async () => {
    const server = fakeServer(2);
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const slowAnswers: ReviewApi = {
      ...server.api,
      answer: async (id, verdict, note, ifVerdict) => {
        if (verdict !== null) await slow;
        return server.api.answer(id, verdict, note, ifVerdict);
      },
    };
    const s = new ReviewSession(slowAnswers, 'pending', () => {});
    await s.load();
    const answering = s.answer('unclear', null);
    const undoing = s.undo();
    await settle();
    expect(server.sent).toEqual([]);
    release();
    await Promise.all([answering, undoing]);
    expect(server.sent).toEqual([
      ['i0', 'unclear', null],
      ['i0', null, null],
    ]);
    expect(s.current).toMatchObject({ id: 'i0', status: 'pending', verdict: null });
    expect((await server.api.queue('pending', 5)).items.map((i) => i.id)).toContain('i0');
  });

  it('undo of a changed answer restores the earlier verdict', async () => {
    const server = fakeServer(2);
    const s = new ReviewSession(server.api, 'pending', () => {});
    await s.load();
    await s.answer('relevant', 'first');
    s.previous();
    await s.answer('unclear', null);
    await s.undo();
    expect(server.sent.at(-1)).toEqual(['i0', 'relevant', 'first']);
    expect(s.current).toMatchObject({ id: 'i0', verdict: 'relevant', status: 'answered' });
  });

  it('puts an item back as it was when its answer could not be sent', async () => {
    const server = fakeServer(2);
    const s = new ReviewSession(server.api, 'pending', () => {});
    await s.load();
    server.failOnce();
    await expect(s.answer('relevant', null)).rejects.toThrow('offline');
    expect(s.current).toMatchObject({ id: 'i0', status: 'pending', verdict: null });
    expect(s.canUndo).toBe(false);
    expect(s.budget).toMatchObject({ answeredLastWeek: 3, pending: 2 });
  });

  it('takes an item the API says no longer exists off the list, the counts with it; any other 404 (a proxy, a wrong route) brings it back', async () => {
    const server = fakeServer(3);
    let refusal: { status: number; code: string } | undefined;
    const api: ReviewApi = {
      ...server.api,
      answer: (...args) => (refusal ? Promise.reject(Object.assign(new Error('404'), refusal)) : server.api.answer(...args)),
    };
    const s = new ReviewSession(api, 'pending', () => {});
    await s.load();
    refusal = { status: 404, code: 'http_error' };
    await expect(s.answer('relevant', null)).rejects.toThrow('404');
    expect(s.current).toMatchObject({ id: 'i0', status: 'pending' });
    refusal = { status: 404, code: 'item_not_found' };
    await expect(s.answer('relevant', null)).rejects.toThrow('404');
    expect(s.items.map((i) => i.id)).toEqual(['i1', 'i2']);
    expect(s.current?.id).toBe('i1');
    expect(s.canUndo).toBe(false);
    expect(s.budget).toMatchObject({ answeredLastWeek: 3, pending: 2 });
    // Answered, then gone before the undo: it leaves the list, the reviewer where they were, nothing left to take back.
    refusal = undefined;
    await s.answer('relevant', null);
    expect(s.current?.id).toBe('i2');
    refusal = { status: 404, code: 'item_not_found' };
    await expect(s.undo()).rejects.toThrow('404');
    expect(s.items.map((i) => i.id)).toEqual(['i2']);
    expect(s.current?.id).toBe('i2');
    expect(s.canUndo).toBe(false);
    expect(s.budget).toMatchObject({ answeredLastWeek: 3, pending: 1 });
    expect(s.training).toMatchObject({ confirmed: 29, examples: 29 });
  });

  it('keeps a later answer to the same item when an earlier one could not be sent', async () => {
    const server = fakeServer(2);
    const s = new ReviewSession(server.api, 'pending', () => {});
    await s.load();
    server.failOnce();
    const first = s.answer('relevant', null);
    s.previous();
    const second = s.answer('not_relevant', 'second thoughts');
    await expect(first).rejects.toThrow('offline');
    await second;
    expect(server.sent).toEqual([['i0', 'not_relevant', 'second thoughts']]);
    expect(s.items[0]).toMatchObject({ id: 'i0', status: 'answered', verdict: 'not_relevant' });
    expect(s.training).toMatchObject({ confirmed: 30, examples: 30 });
    expect(s.budget?.answeredLastWeek).toBe(4);
  });

  it('fetches the traces of the items ahead and the next page before they are asked for', async () => {
    const server = fakeServer(PAGE_SIZE + 10);
    const s = new ReviewSession(server.api, 'pending', () => {});
    await s.load();
    expect(server.tracesAsked).toEqual(['i0', 'i1', 'i2']);
    expect(s.items).toHaveLength(PAGE_SIZE);
    for (let i = 0; i < PAGE_SIZE - 4; i++) await s.answer('unclear', null);
    await settle();
    expect(s.items).toHaveLength(PAGE_SIZE + 10);
    expect(new Set(s.items.map((i) => i.id)).size).toBe(PAGE_SIZE + 10);
    // That page came back shorter than asked for: the whole list is loaded.
    expect(s.exhausted).toBe(true);
  });

  it('ends the list when a page comes back shorter than asked for, without asking once more', async () => {
    const server = fakeServer(PAGE_SIZE * 2 + 5);
    const limits: number[] = [];
    const queue = server.api.queue;
    server.api.queue = (status, limit, offset) => {
      limits.push(limit);
      return queue(status, limit, offset);
    };
    const s = new ReviewSession(server.api, 'pending', () => {});
    await s.load();
    for (let i = 0; i < PAGE_SIZE * 2 + 5; i++) {
      s.next();
      await settle();
    }
    expect(s.current).toBeUndefined();
    expect(s.items).toHaveLength(PAGE_SIZE * 2 + 5);
    expect(s.exhausted).toBe(true);
    expect(limits).toEqual([PAGE_SIZE, PAGE_SIZE * 2, PAGE_SIZE * 3]);
  });

  it('moves and fetches nothing for keys pressed before the first page arrives, so the list goes on past it', async () => {
    const server = fakeServer(PAGE_SIZE * 3);
    const limits: number[] = [];
    let arrive = () => {};
    const arrived = new Promise<void>((r) => (arrive = r));
    const queue = server.api.queue;
    server.api.queue = async (status, limit, offset) => {
      limits.push(limit);
      await arrived;
      return queue(status, limit, offset);
    };
    const s = new ReviewSession(server.api, 'pending', () => {});
    const loading = s.load();
    s.next();
    s.previous();
    s.next();
    arrive();
    await loading;
    expect(s.current?.id).toBe('i0');
    expect(limits).toEqual([PAGE_SIZE]);
    for (let i = 0; i < PAGE_SIZE + 5; i++) {
      s.next();
      await settle();
    }
    expect(s.current?.id).toBe(`i${PAGE_SIZE + 5}`);
    expect(s.exhausted).toBe(false);
  });

  it('goes on past a page of items it has when the list moved down past the head (items answered elsewhere went to its top)', async () => {
    const { budget, training } = await fakeServer(0, 'answered').api.queue('answered', 1);
    const listed = Array.from({ length: 600 }, (_, i) => ({ ...item(i), status: 'answered' as const }));
    const api: ReviewApi = {
      ...fakeServer(0).api,
      async queue(_status, limit, offset = 0) {
        // Once the session pages past the head, 25 answers given elsewhere come to the top.
        if (offset > 0 && listed.length === 600) listed.unshift(...Array.from({ length: 25 }, (_, i) => ({ ...item(600 + i), status: 'answered' as const })));
        return { items: structuredClone(listed.slice(offset, offset + limit)), budget, training };
      },
    };
    const s = new ReviewSession(api, 'answered', () => {});
    await s.load();
    for (let i = 0; i < 700 && !s.exhausted; i++) {
      s.next();
      await settle();
    }
    // Every item of the first 600 is reached; the 25 new ones sit above where the reviewer is.
    expect(new Set(s.items.map((i) => i.id))).toEqual(new Set(listed.slice(25).map((i) => i.id)));
    expect(s.exhausted).toBe(true);
  });

  it('pages on through the answered and held lists as through the waiting one', async () => {
    for (const status of ['answered', 'held'] as const) {
      const server = fakeServer(PAGE_SIZE * 2 + 5, status);
      const s = new ReviewSession(server.api, status, () => {});
      await s.load();
      for (let i = 0; i < PAGE_SIZE * 2 + 4; i++) {
        s.next();
        await settle();
      }
      expect(s.current?.id, status).toBe(`i${PAGE_SIZE * 2 + 4}`);
      expect(s.items.map((i) => i.id)).toEqual(Array.from({ length: PAGE_SIZE * 2 + 5 }, (_, i) => `i${i}`));
      s.next();
      await settle();
      expect(s.current).toBeUndefined();
      expect(s.exhausted).toBe(true);
    }
  });

  it('pages on past the 500 items one request gives', async () => {
    const server = fakeServer(620, 'answered');
    const s = new ReviewSession(server.api, 'answered', () => {});
    await s.load();
    for (let i = 0; i < 619; i++) {
      s.next();
      await settle();
    }
    expect(s.current?.id).toBe('i619');
    expect(s.items).toHaveLength(620);
    s.next();
    await settle();
    expect(s.exhausted).toBe(true);
  });

  it('moves to the next item of the answered or held list after an answer given there, not to the end', async () => {
    for (const status of ['answered', 'held'] as const) {
      const server = fakeServer(3, status);
      const s = new ReviewSession(server.api, status, () => {});
      await s.load('i1');
      await s.answer('not_relevant', null);
      expect(s.current?.id, status).toBe('i2');
      await s.answer('not_relevant', null);
      expect(s.current, status).toBeUndefined();
      expect(server.sent.map(([id]) => id)).toEqual(['i1', 'i2']);
    }
  });

  it('starts on the item the address names', async () => {
    const s = new ReviewSession(fakeServer(5).api, 'pending', () => {});
    await s.load('i3');
    expect(s.current?.id).toBe('i3');
  });

  it('starts on a named item further down the list than the first page, then goes on with the page', async () => {
    const s = new ReviewSession(fakeServer(PAGE_SIZE + 10).api, 'pending', () => {});
    await s.load(`i${PAGE_SIZE + 5}`);
    expect(s.current?.id).toBe(`i${PAGE_SIZE + 5}`);
    await s.answer('relevant', null);
    expect(s.current?.id).toBe('i0');
  });

  it('shows nothing, so no key answers an item, until the named item further down has arrived', async () => {
    const server = fakeServer(PAGE_SIZE + 10);
    let arrive = () => {};
    const item = server.api.item;
    server.api.item = (id) => new Promise((resolve) => (arrive = () => resolve(item(id))));
    const s = new ReviewSession(server.api, 'pending', () => {});
    const loading = s.load(`i${PAGE_SIZE + 5}`);
    await settle();
    await s.answer('relevant', null);
    arrive();
    await loading;
    expect(server.sent).toEqual([]);
    expect(s.current?.id).toBe(`i${PAGE_SIZE + 5}`);
  });

  it('starts at the top when the named item is gone or has another status, and says which list has it', async () => {
    const server = fakeServer(PAGE_SIZE + 10);
    await server.api.answer(`i${PAGE_SIZE + 5}`, 'relevant', null, null);
    for (const [named, elsewhere] of [
      [`i${PAGE_SIZE + 5}`, 'answered'],
      ['no-such-item', undefined],
    ] as const) {
      const s = new ReviewSession(server.api, 'pending', () => {});
      await s.load(named);
      expect(s.current?.id).toBe('i0');
      expect(s.items.map((i) => i.id)).not.toContain(named);
      expect(s.startsElsewhere).toBe(elsewhere);
    }
  });
});
