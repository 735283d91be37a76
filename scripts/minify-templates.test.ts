import { describe, expect, it } from 'vitest';
import { minifyTemplates } from './minify-templates.ts';

describe("Lit's templates in the widget's and the console's builds", () => {
  it('minifies the text of css and html templates, not the expressions inside them', () => {
    const source = [
      'const styles = css`',
      '  :host {',
      '    display: block;',
      '  }`;',
      'const view = html`<div class="bar"',
      '    part="bar">',
      '  ${items.map((i) =>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text the minifier reads
      '      html`<b>${i}</b>`)}',
      '  </div>`;',
      'const plain = `keep',
      '   this`;',
    ];
    expect(minifyTemplates(source.join('\n')).split('\n')).toEqual([
      'const styles = css`:host{display:block}`;',
      'const view = html`<div class="bar" part="bar"> ${items.map((i) =>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text the minifier writes
      '      html`<b>${i}</b>`)} </div>`;',
      'const plain = `keep',
      '   this`;',
    ]);
  });
});
