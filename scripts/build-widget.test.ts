import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ownSources } from './build-shared.ts';
import { buildWidget } from './build-widget.ts';
import { privateNames, usedAsProperty } from './private-names.ts';
import { webVitalsPrivateNames } from './web-vitals-without-soft-navs.ts';
import { ROOT } from './wrangler.ts';

/** The event names declared in the widget's event map (widget/events.ts). */
function declaredEvents(): string[] {
  const file = ts.createSourceFile('events.ts', readFileSync(join(ROOT, 'widget', 'events.ts'), 'utf8'), ts.ScriptTarget.Latest);
  const map = file.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'RagFeedbackEventMap')!;
  return map.members.map((m) => (m.name as ts.StringLiteral).text);
}

/** The CSS parts the widget's templates expose (widget/ui/). */
function templateParts(): string[] {
  const dir = join(ROOT, 'widget', 'ui');
  const sources = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => readFileSync(join(dir, f), 'utf8'));
  return [...new Set(sources.flatMap((src) => [...src.matchAll(/part="([^"]+)"/g)].flatMap((m) => m[1]!.split(' '))))].sort();
}

describe('the widget build', () => {
  it('makes an ES module with a background chunk, a single-file script, type declarations and a custom-elements manifest', { timeout: 120_000 }, async () => {
    const out = mkdtempSync(join(tmpdir(), 'rf-widget-build-'));
    const { esm } = await buildWidget({ outDir: out });
    // Two files: the entry, with everything the first render runs, and the background chunk, which imports from it.
    const files = Object.keys(esm.outputs);
    const entry = files.find((f) => f.endsWith('/rag-feedback.js'))!;
    const background = files.find((f) => f.includes('/chunks/background-'))!;
    expect(files).toHaveLength(2);
    expect(esm.outputs[entry]!.imports).toEqual([{ path: background, kind: 'dynamic-import' }]);
    expect(esm.outputs[background]!.imports).toEqual([{ path: entry, kind: 'import-statement' }]);
    expect(readFileSync(background, 'utf8')).toMatch(/^import\{[^}]+\}from"\.\.\/rag-feedback\.js";/);
    expect(esm.outputs[entry]!.exports).toEqual(expect.arrayContaining(['RagFeedback', 'RagFeedbackElement']));
    const iife = readFileSync(join(out, 'rag-feedback.iife.js'));
    expect(iife.toString('utf8')).toContain('window.RagFeedback=');
    // UTF-8 with a byte order mark, so no server's charset or page's encoding can misread it.
    expect([...iife.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // Bundlers' marks are of no use to a browser.
    for (const file of [entry, background]) expect(readFileSync(file, 'utf8')).not.toContain('@__PURE__');
    // Web vitals without web-vitals' soft-navigation code, which the widget never asks for.
    expect(readFileSync(background, 'utf8')).toMatch(/largest-contentful-paint/);
    expect(readFileSync(background, 'utf8')).not.toMatch(/reportSoftNavs|_sessionValue/);
    // The outbox with idb, less its database shortcuts and async iterators.
    expect(readFileSync(background, 'utf8')).toMatch(/indexedDB\.open/);
    expect(readFileSync(background, 'utf8')).not.toMatch(/FromIndex|asyncIterator/);
    const types = readFileSync(join(out, 'types', 'widget', 'index.d.ts'), 'utf8');
    expect(types).toContain("from './rag-feedback/rag-feedback.js'");
    expect(existsSync(join(out, 'types', 'widget', 'rag-feedback', 'rag-feedback.component.d.ts'))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(out, 'custom-elements.json'), 'utf8'));
    const element = manifest.modules.flatMap((m: any) => m.declarations ?? []).find((d: any) => d.tagName === 'rag-feedback');
    expect(element.attributes.map((a: any) => a.name)).toEqual(['trace-id', 'session-id', 'query', 'endpoint', 'write-key', 'locale', 'theme', 'answered-at']);
    // Exactly the events of the typed event map, in its order, from the class's JSDoc alone.
    expect(declaredEvents()).toContain('rf-vote');
    expect(element.events.map((e: any) => e.name)).toEqual(declaredEvents());
    // The public API and nothing else: the controllers and their state are private.
    const publicMembers = element.members.filter((m: any) => !['private', 'protected'].includes(m.privacy)).map((m: any) => m.name);
    expect(publicMembers).toEqual([
      ...['traceId', 'sessionId', 'query', 'endpoint', 'writeKey', 'locale', 'theme', 'answeredAt'],
      ...['castVote', 'rate', 'chooseReason', 'flagWrongSource', 'submitCorrection', 'reportRegenerate', 'reportCopy', 'answerPrompt', 'feedbackState'],
    ]);
    // Every part a template exposes is documented, and none that no template has.
    expect(element.cssParts.map((p: any) => p.name).sort()).toEqual(templateParts());

    // Private names are shortened unless the bundle's own code uses them as keys: code it leaves out
    // (the signal weights' `late`, a training row's `shown`, both in shared/) keeps none long.
    for (const file of [entry, background]) expect(readFileSync(file, 'utf8')).not.toMatch(/\.(?:late|shown)\b/);

    // Shortened private names must not be properties the bundled libraries use: esbuild would
    // rename their accesses too, but not a key they write as a string.
    const shortened = privateNames(ROOT, ownSources(esm), 'widget/index.ts');
    const libraries = Object.keys(esm.inputs).filter((f) => f.includes('node_modules/'));
    expect(libraries.some((f) => f.includes('/lit-html/'))).toBe(true);
    // web-vitals' own private names are shortened too: no other library may use them.
    const webVitals = webVitalsPrivateNames(ROOT);
    expect(webVitals).toContain('_sessionValue');
    for (const file of libraries) {
      const names = file.includes('/web-vitals/') ? shortened : [...shortened, ...webVitals];
      expect(usedAsProperty(readFileSync(join(ROOT, file), 'utf8'), names), file).toEqual([]);
    }
  });
});
