import { describe, expect, it } from 'vitest';
import { contradictsAnswer, withoutPushback } from './contradiction.ts';

describe('contradictsAnswer', () => {
  it.each([
    "That's wrong, the window is 30 days",
    'No, I asked about opened items',
    'Nope.',
    'no that is not what I asked',
    'This is not correct: refunds take 14 days',
    'It was completely outdated',
    'You are wrong about the fee',
    'Are you sure? The policy page says otherwise',
    "That can't be right",
    'Actually the deadline is April 30, not March 30',
    'That’s not what I meant',
    '不对，退款期限是30天',
    '你确定吗？',
    '这个说错了',
    "Actually, it's 30 days",
    'Actually no, I meant opened items',
    'actually that is not the policy',
    '错了。退款期限是30天',
    '不对吧？',
    '你说错了，是30天',
    '这不对',
    '答案不准确。',
    '你确定退款期限是30天吗？',
    '退款期限是30天吗？你确定？',
    '不是这样的，我问的是拆封的商品',
  ])('takes "%s" as pushing back', (followUp) => {
    expect(contradictsAnswer(followUp)).toBe(true);
  });

  it.each([
    "What's wrong with my order?",
    'No refunds for opened items?',
    'Is it wrong to return a gift?',
    'How do I report an incorrect charge?',
    'What about shipping to Canada?',
    'Can I get a refund after 30 days?',
    '退款需要多久？',
    'Actually, what about shipping?',
    'Actually I have another question',
    'Actually, can I return it?',
    // The words of a pushback inside a question about something else.
    '如果地址填错了怎么办？',
    '密码输错了会锁定吗？',
    '信息不对称是什么意思？',
    '不准确的地址怎么修改？',
    '订单错了，怎么改？',
    '是不是这样操作？',
    '',
  ])('takes "%s" as a question, not a pushback', (followUp) => {
    expect(contradictsAnswer(followUp)).toBe(false);
  });
});

describe('withoutPushback', () => {
  it.each([
    ["That's wrong. Does aspirin reduce fever?", 'Does aspirin reduce fever?'],
    ["No, that's not right. Is it 30 days?", 'Is it 30 days?'],
    ["That's not what I asked. Opened items?", 'Opened items?'],
    ['Are you sure?', ''],
    ['You are wrong about the fee', 'about the fee'],
    ['Actually, the deadline is April 30', 'the deadline is April 30'],
    ['不对，退款期限是30天', '退款期限是30天'],
    ["Actually, it's 30 days", "it's 30 days"],
    ['你确定吗？', ''],
    ['你说错了，是30天吗？', '是30天吗?'],
  ])('reads "%s" as asking "%s"', (followUp, asks) => {
    expect(withoutPushback(followUp)).toBe(asks);
  });

  it.each([
    "What's wrong with my order?",
    'No refunds for opened items?',
    '  Can I get a refund after 30 days? ',
    'Actually, what about shipping?',
    '如果地址填错了怎么办？',
    '密码输错了会锁定吗？',
    '信息不对称是什么意思？',
    '不准确的地址怎么修改？',
  ])('leaves "%s", which does not push back, as it is', (question) => {
    expect(withoutPushback(question)).toBe(question);
  });
});
