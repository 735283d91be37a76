import { describe, expect, it } from 'vitest';
import { highlightSegments } from './highlight.ts';

const marked = (text: string, query: string) =>
  highlightSegments(text, query)
    .filter((s) => s.hit)
    .map((s) => s.text);

describe('highlightSegments', () => {
  it('marks the words the query shares, whatever their case, and not stop words', () => {
    expect(marked('Opened items can be Refunded within 14 days.', 'what is the refund window for opened items? 14')).toEqual(['Opened', 'items', '14']);
  });

  it('gives back the text unchanged when joined', () => {
    const text = 'Shipping <b>to</b> Canada — 5 to 8 days. 退款政策：开封商品可在14天内退货。';
    expect(
      highlightSegments(text, 'shipping canada 退款')
        .map((s) => s.text)
        .join(''),
    ).toBe(text);
  });

  it('marks the characters of shared bigrams in Chinese', () => {
    expect(marked('退款政策：开封商品可在14天内退货。', '开封的商品怎么退款')).toEqual(['退款', '开封商品']);
  });

  it('marks whole words with their combining marks, and "İ" as "i"', () => {
    expect(marked('Flights to İstanbul and ISTANBUL', 'istanbul')).toEqual(['İstanbul', 'ISTANBUL']);
    expect(marked('हिन्दी भाषा में जवाब', 'भाषा')).toEqual(['भाषा']);
  });

  it("marks a word with Arabic's vowel marks or a Han character's variation selector as the terms read it, the marks with it", () => {
    expect(marked('الكِتَابُ الجديد', 'الكتاب')).toEqual(['الكِتَابُ']);
    expect(marked('退\uFE00款政策', '退款')).toEqual(['退\uFE00款']);
  });

  it('marks nothing for a query with no terms', () => {
    expect(highlightSegments('Some text', 'the of')).toEqual([{ text: 'Some text', hit: false }]);
  });
});
