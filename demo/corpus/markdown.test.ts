import { describe, expect, it } from 'vitest';
import { formatOf } from './chunk.ts';
import { chunkMarkdown, slug } from './markdown.ts';

const doc = `# Shop

Welcome to the shop.

## Refunds: \`opened\` items

Opened items can be returned within 14 days.

\`\`\`sh
# not a heading: inside a code block
curl /refunds
\`\`\`

### By post

Send it back with the form.

## Shipping

Three days.
`;

describe('chunkMarkdown', () => {
  it('cuts at headings, titles each chunk with its heading path, and ignores # inside code blocks', () => {
    const chunks = chunkMarkdown('shop.md', doc);
    expect(chunks.map((c) => [c.chunkId, c.title])).toEqual([
      ['shop.md#shop', 'Shop'],
      ['shop.md#refunds-opened-items', 'Shop › Refunds: opened items'],
      ['shop.md#by-post', 'Shop › Refunds: opened items › By post'],
      ['shop.md#shipping', 'Shop › Shipping'],
    ]);
    expect(chunks[1]!.text).toContain('# not a heading: inside a code block');
    expect(chunks.every((c) => c.sourceDocId === 'shop.md')).toBe(true);
    // Quoted and previewed as rendered, not as the marks were typed.
    expect(chunks.every((c) => formatOf(c) === 'markdown')).toBe(true);
  });

  it('cuts a long section at blank lines, never inside a code block, with numbered ids and titles', () => {
    const code = '```\nline one\n\nline two after a blank line\n```';
    const long = `## Long\n\n${'a'.repeat(50)}\n\n${code}\n\n${'b'.repeat(50)}`;
    const chunks = chunkMarkdown('long.md', long, { maxChars: 60 });
    expect(chunks.map((c) => c.chunkId)).toEqual(['long.md#long', 'long.md#long-2', 'long.md#long-3']);
    expect(chunks[1]!.text).toBe(code);
    expect(chunks.map((c) => c.title)).toEqual(['Long (1/3)', 'Long (2/3)', 'Long (3/3)']);
  });

  it('cuts a long table at its rows, each part led by its header, and a long list at its items; keeps no column padding', () => {
    const rows = ['| a   | b   |', '| --- | --- |', '| one | 1   |', '| two | 2   |', '| three | 3 |'];
    const list = ['- first item', '  goes on here', '- second item', '1. third item'];
    const chunks = chunkMarkdown('t.md', `## T\n\n${rows.join('\n')}\n\n${list.join('\n')}`, { maxChars: 30 });
    expect(chunks.map((c) => c.text)).toEqual([
      '| a | b |\n| --- | --- |\n| one | 1 |',
      '| a | b |\n| --- | --- |\n| two | 2 |',
      '| a | b |\n| --- | --- |\n| three | 3 |',
      '- first item\n  goes on here',
      '- second item\n1. third item',
    ]);
    // Within the limit, a table and a list stay whole.
    expect(chunkMarkdown('t.md', `## T\n\n${rows.join('\n')}`).map((c) => c.text)).toEqual([rows.map((r) => r.replace(/ {2,}/g, ' ')).join('\n')]);
  });

  it('versions chunks by the document content', () => {
    const [a] = chunkMarkdown('x.md', '# A\n\ntext');
    const [b] = chunkMarkdown('x.md', '# A\n\ntext');
    const [c] = chunkMarkdown('x.md', '# A\n\nnew text');
    expect(a!.sourceDocVersion).toBe(b!.sourceDocVersion);
    expect(a!.sourceDocVersion).not.toBe(c!.sourceDocVersion);
  });

  it('makes ids the collector accepts, unique even for repeated or non-Latin headings', () => {
    const chunks = chunkMarkdown('d.md', '## Notes\n\none\n\n## Notes\n\ntwo\n\n## 退款\n\nthree');
    const ids = chunks.map((c) => c.chunkId);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^[\w.:@/#-]+$/);
    expect(slug('The widget: `<rag-feedback>`')).toBe('the-widget-rag-feedback');
  });
});
