import { readFileSync } from 'node:fs';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { litWithoutHooks, withoutHooks } from './lit-without-hooks.ts';
import { ROOT } from './wrangler.ts';

/** Lit as the widget's bundles resolve it (the browser's production build), with these plugins, minified. */
async function lit(plugins: Plugin[]): Promise<string> {
  const { outputFiles } = await build({
    stdin: { contents: "export { LitElement, html, css } from 'lit';", resolveDir: ROOT },
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    logLevel: 'silent',
    plugins,
  });
  return outputFiles[0]!.text;
}

const HOOKS = /PolyfillSupport|HydrateSupport|litHtmlVersions|reactiveElementVersions|litElementVersions/g;

describe("Lit's modules in the widget's bundles", () => {
  it('leave out the polyfill and hydration hooks and the version notes, and nothing else', async () => {
    const whole = await lit([]);
    expect(whole.match(HOOKS)).toHaveLength(7);
    const cut = await lit([litWithoutHooks]);
    expect(cut).not.toMatch(HOOKS);
    // The element's own code is all there.
    for (const name of ['_$litElement$', 'createRenderRoot', 'adoptedStyleSheets', 'attachShadow']) expect(cut).toContain(name);
    // The hooks, and the resolution of directives (below).
    expect(whole.length - cut.length).toBeLessThan(700);
  });

  it("hand back every template value as it is, with no directive's to resolve, and fail the build of a module importing a directive", async () => {
    const whole = await lit([]);
    const cut = await lit([litWithoutHooks]);
    expect(whole).toContain('_$litDirective$');
    expect(cut).not.toContain('_$litDirective$');
    const { errors } = await build({
      stdin: { contents: "import { classMap } from 'lit/directives/class-map.js'; console.log(classMap);", resolveDir: ROOT },
      bundle: true,
      write: false,
      logLevel: 'silent',
      plugins: [litWithoutHooks],
    }).catch((e: { errors: { text: string }[] }) => e);
    expect(errors.map((e) => e.text).join()).toMatch(/leaves Lit's directive support out/);
  });

  it('fails the build when a hook is not written as expected, rather than guess', () => {
    const file = 'lit-html/lit-html.js';
    const source = readFileSync(`${ROOT}/node_modules/${file}`, 'utf8');
    expect(withoutHooks(file, source)).not.toMatch(HOOKS);
    expect(() => withoutHooks(file, source.replace('litHtmlVersions??=[]', 'litHtmlVersions||=[]'))).toThrow(/not as the widget build expects/);
  });
});
