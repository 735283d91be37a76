/**
 * The tiny model's English vocabulary, after the special tokens (model-files.ts): function words
 * and punctuation (light vectors), synonym groups (each group's words share nearby vectors), other
 * content words (unrelated vectors) and a few suffix pieces so plurals and tenses of known words
 * still tokenize.
 */

/**
 * Words that carry little meaning. Their vectors are short, so mean pooling follows the content
 * words, much as IDF weighting would; otherwise any two questions would look alike.
 */
export const FUNCTION_WORDS = words(`
  a an the i my me you your we it is are was be do does did can could how what when where why which who to of in on for
  with at by from and or not no this that there please so if about any some much many long will would ? . , ! '`);

/**
 * Words that mean the same thing here: each group's vectors lie close together, so a paraphrase
 * built by swapping words within groups ("how do i get a refund" → "how can i obtain a
 * reimbursement") lands near its original.
 */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['refund', 'reimbursement', 'repayment'],
  ['get', 'obtain', 'receive'],
  ['cancel', 'terminate', 'stop'],
  ['subscription', 'membership', 'plan'],
  ['password', 'passcode', 'passphrase'],
  ['reset', 'change', 'renew'],
  ['delivery', 'shipping', 'shipment'],
  ['price', 'cost', 'fee'],
  ['buy', 'purchase', 'order'],
  ['fast', 'quick', 'rapid'],
  ['help', 'support', 'assistance'],
  ['error', 'problem', 'issue'],
  ['broken', 'damaged', 'defective'],
  ['item', 'product', 'goods'],
  ['start', 'begin', 'launch'],
  ['days', 'time', 'period'],
];

/** Content words with vectors of their own, unrelated to each other and to the groups. */
export const OTHER_WORDS = words(`
  weather rain sun garden flowers dog cat music song football game recipe soup pizza coffee tea movie book car train city
  holiday beach mountain river school teacher history science birthday nice today tomorrow like love play cook read account
  email address card window opened return carriers ship vitamin risk`);

/** Suffix pieces (WordPiece's `##` continuations) for words not in the vocabulary whole. */
export const SUFFIX_PIECES = words('##s ##es ##ed ##ing ##ly');

function words(list: string): string[] {
  return list.trim().split(/\s+/);
}
