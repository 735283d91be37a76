/**
 * esbuild minifies code, not the text of Lit's css`…` and html`…` templates: the widget's and the
 * console's builds minify the literal parts of those templates in their own source files.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'esbuild';
import ts from 'typescript';

/** White space CSS does not need: runs collapsed, none around punctuation, no last semicolon. */
const minifyCss = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/\s*([{}:;,>])\s*/g, '$1')
    .replace(/;}/g, '}')
    .trim();
/** Line breaks and indentation in markup render as one space, so they are sent as one. */
const minifyHtml = (text: string) => text.replace(/\s*\n\s*/g, ' ');

/**
 * `source` with the literal parts of its css`…` and html`…` templates minified, found with the
 * TypeScript parser so that the `${…}` expressions between them are left as they are.
 */
export function minifyTemplates(source: string): string {
  const file = ts.createSourceFile('template.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits: { start: number; end: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && (node.tag.text === 'css' || node.tag.text === 'html')) {
      const minify = node.tag.text === 'css' ? minifyCss : minifyHtml;
      const { template } = node;
      const literals = ts.isNoSubstitutionTemplateLiteral(template) ? [template] : [template.head, ...template.templateSpans.map((s) => s.literal)];
      for (const literal of literals) {
        // Between the opening ` or } and the closing ` or ${.
        const start = literal.getStart(file) + 1;
        const end = literal.getEnd() - (ts.isTemplateHead(literal) || ts.isTemplateMiddle(literal) ? 2 : 1);
        edits.push({ start, end, text: minify(source.slice(start, end)) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  edits.sort((a, b) => a.start - b.start);
  return edits.reduceRight((out, { start, end, text }) => out.slice(0, start) + text + out.slice(end), source);
}

/** An esbuild plugin minifying the templates of the TypeScript files whose paths match `filter`. */
export const minifiedTemplates = (filter: RegExp): Plugin => ({
  name: 'minify-templates',
  setup(b) {
    b.onLoad({ filter }, ({ path }) => ({ loader: 'ts', contents: minifyTemplates(readFileSync(path, 'utf8')) }));
  },
});
