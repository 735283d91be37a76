import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledSources } from './build-widget.ts';
import { privateNames, usedAsProperty } from './private-names.ts';
import { ROOT } from './wrangler.ts';

describe('the private names the widget build shortens', () => {
  it('are the private members of the widget and the shared code its bundle holds', async () => {
    const sources = (await bundledSources()).map((f) => relative(ROOT, f));
    expect(sources).toEqual(expect.arrayContaining(['widget/index.ts', 'widget/pipeline/outbox.ts', 'shared/token-bucket.ts']));
    // Shared code the widget imports for its types alone, or not at all, is not in it.
    expect(sources).not.toContain('shared/signals.ts');
    expect(sources.filter((f) => f.startsWith('shared/training/'))).toEqual([]);
    const names = privateNames(ROOT, sources);
    expect(names).toContain('unconfirmed'); // Recorder
    expect(names).toContain('previewsVisible'); // CitationController
    expect(names).toContain('maxBuckets'); // TokenBuckets, in shared/
    expect(names).toContain('onClick'); // CitationController: hono, whose JSX types declare it, is imported in shared/ for its types alone
    expect(names).not.toContain('recordSignal'); // public: the signal controllers call it
    expect(names).not.toContain('host'); // ShadowRoot.host, URL.host
    expect(names).not.toContain('add'); // Set.prototype.add
    // Keys of code the bundle leaves out rename nothing in it: the signal weights' `late`, a training row's `shown`.
    expect(names).toContain('late'); // Outbox
    expect(names).toContain('shown'); // PopoverController
  });

  it("are also, given the bundle's entry, the other members of its classes that the page does not reach", async () => {
    const sources = (await bundledSources()).map((f) => relative(ROOT, f));
    const names = privateNames(ROOT, sources, 'widget/index.ts');
    expect(names).toEqual(expect.arrayContaining(privateNames(ROOT, sources)));
    expect(names).toContain('recordSignal'); // FeedbackController, called through the SignalSink it implements
    expect(names).toContain('schedule'); // Transport
    expect(names).not.toContain('castVote'); // the element's API: FeedbackController's method of that name keeps it too
    expect(names).not.toContain('feedback'); // the element's own member, which the page sees on it
    expect(names).not.toContain('results'); // the collector's answer, read through a type of its shape
    expect(names).not.toContain('outboxCap'); // an option the page passes
  });

  it('leave out a name that a dependency declares, or that the code also uses as a key, on another object or in a string', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rf-private-names-'));
    const source = [
      "import { openDB } from 'idb';",
      'export class Outbox {',
      '  private pendingWrites = 0;',
      '  private terminated = false;',
      '  private chunkId = 0;',
      '  private since = 0;',
      '  private rating = 0;',
      '  private timer = 0;',
      "  open = () => openDB('db', 1, { terminated: () => { this.terminated = true; } });",
      '  event = () => ({ chunkId: this.chunkId, at: { since: this.since } });',
      '  read = (config: { rating: number }) => config.rating + this.rating + this.pendingWrites;',
      "  ticking = () => 'timer' in this && this.timer > 0;",
      '}',
    ];
    writeFileSync(join(dir, 'outbox.ts'), source.join('\n'));
    // idb's openDB takes a `terminated` callback; an event has a `chunkId`; a config has a `rating`:
    // renaming the private member would rename those too. A string naming `timer` would keep its name.
    expect(privateNames(ROOT, [join(dir, 'outbox.ts')])).toEqual(['pendingWrites']);
  });

  it("count a package's declarations only where its code is imported, not its types alone", () => {
    // hono's JSX types declare `onClick`: shared code for the collector naming hono's types must not keep the widget's own long.
    const withTypes = mkdtempSync(join(tmpdir(), 'rf-private-names-'));
    const source = (importLine: string) => [importLine, 'export class Citations {', '  private onClick = (_: Hono) => 0;', '}'].join('\n');
    writeFileSync(join(withTypes, 'citations.ts'), source("import type { Hono } from 'hono';"));
    expect(privateNames(ROOT, [join(withTypes, 'citations.ts')])).toEqual(['onClick']);
    writeFileSync(join(withTypes, 'citations.ts'), source("import { type Hono } from 'hono';"));
    expect(privateNames(ROOT, [join(withTypes, 'citations.ts')])).toEqual(['onClick']);
    // Its code imported, its objects may carry the name.
    writeFileSync(join(withTypes, 'citations.ts'), source("import { Hono } from 'hono';"));
    expect(privateNames(ROOT, [join(withTypes, 'citations.ts')])).toEqual([]);
  });
});

describe('usedAsProperty', () => {
  it('finds a name used as a property, a $ in it too, and not a longer name it begins', () => {
    const code = 'a.$state = 1; b.opts$ = 2; c.timer2 = 3; const o = { level: 4 }; f(...rest);';
    expect(usedAsProperty(code, ['$state', 'opts$', 'timer', 'level', 'rest'])).toEqual(['$state', 'opts$', 'level']);
  });
});
