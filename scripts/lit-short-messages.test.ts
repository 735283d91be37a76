import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { litShortMessages, withShortMessages } from './lit-short-messages.ts';
import { ROOT } from './wrangler.ts';

/** Lit's css-tag module as the widget's bundles resolve it (the browser's build), with these plugins. */
async function cssTag(plugins: Plugin[]): Promise<string> {
  const { outputFiles } = await build({
    stdin: { contents: "export { CSSResult, unsafeCSS } from '@lit/reactive-element/css-tag.js';", resolveDir: ROOT },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    logLevel: 'silent',
    plugins,
  });
  return outputFiles[0]!.text;
}

describe("Lit's css-tag module in the widget's bundles", () => {
  it('throws for a CSSResult made by hand as before, with a short message, and unsafeCSS works as before', async () => {
    expect(await cssTag([])).toContain('Use `unsafeCSS` or `css` instead.');
    const short = await cssTag([litShortMessages]);
    expect(short).not.toContain('Use `unsafeCSS`');
    const lit = await import(`data:text/javascript;base64,${Buffer.from(short).toString('base64')}`);
    expect(() => new lit.CSSResult('a{}')).toThrow(/^CSSResult$/);
    expect(lit.unsafeCSS('a{color:red}').cssText).toBe('a{color:red}');
  });

  it('fails the build when the message is not where expected, rather than guess', () => {
    expect(() => withShortMessages('class n{constructor(){throw Error("CSSResult cannot be constructed")}}')).toThrow(/not as the widget build expects/);
  });
});
