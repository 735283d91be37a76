/**
 * The names of the widget's private class members that the build may shorten (esbuild's
 * `mangleProps`): TypeScript already keeps every use of them inside their class. esbuild renames a
 * property name everywhere in the bundle, so a name that the browser's or a dependency's objects
 * also use (`host`, `add`, idb's `terminated`…) stays as it is.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/** An import or export of types alone: `import type { A }`, `import { type A }`, `export type { A } from`. */
function typeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  const clause = node.importClause;
  if (!clause) return false; // `import 'x'` runs the package
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return !clause.name && !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

/**
 * Every name declared `private` in a class of `files`; every other name their code uses as a
 * property (an object's key, a field of a type, a member of something other than `this`: the
 * names of options, events and the wire format among them); and every package whose code it imports.
 */
function scan(files: string[]): { names: Set<string>; others: Set<string>; packages: Set<string> } {
  const names = new Set<string>();
  const others = new Set<string>();
  const packages = new Set<string>();
  const visit = (node: ts.Node): void => {
    const member = ts.isPropertyDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isParameter(node);
    if (member && ts.isIdentifier(node.name) && ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Private) names.add(node.name.text);
    else if ((ts.isClassElement(node) || ts.isTypeElement(node) || ts.isObjectLiteralElement(node)) && node.name && ts.isIdentifier(node.name))
      others.add(node.name.text);
    else if (ts.isPropertyAccessExpression(node) && node.expression.kind !== ts.SyntaxKind.ThisKeyword) others.add(node.name.text);
    else if (ts.isBindingElement(node) && node.propertyName && ts.isIdentifier(node.propertyName)) others.add(node.propertyName.text);
    else if (ts.isBindingElement(node) && !node.propertyName && ts.isObjectBindingPattern(node.parent) && ts.isIdentifier(node.name))
      others.add(node.name.text);
    // A string may name a property (`this['timer']`, `'timer' in x`), which esbuild leaves as written.
    else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) others.add(node.text);
    // A package imported for its types alone (`import type { Hono } from 'hono'`, in shared code for the collector) puts
    // none of its objects in the bundle: the names its declarations use stay free to shorten.
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && !typeOnly(node)) {
      const spec = node.moduleSpecifier.text;
      if (!spec.startsWith('.')) packages.add(spec.split('/', spec.startsWith('@') ? 2 : 1).join('/'));
    }
    ts.forEachChild(node, visit);
  };
  for (const file of files) visit(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
  return { names, others, packages };
}

/** The folder of `pkg` as Node resolves it from `dir`: the nearest node_modules that has it. */
function packageDir(pkg: string, dir: string): string {
  for (let d = dir; ; d = dirname(d)) {
    const candidate = join(d, 'node_modules', pkg);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(d) === d) throw new Error(`${pkg} is not installed`);
  }
}

/** The text of the type declarations of `packages` and of the packages they depend on. */
function declarations(root: string, packages: Iterable<string>): string {
  const seen = new Set<string>();
  const texts: string[] = [];
  const add = (pkg: string, from: string) => {
    const dir = packageDir(pkg, from);
    if (seen.has(dir)) return;
    seen.add(dir);
    for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' })) if (f.endsWith('.d.ts')) texts.push(readFileSync(join(dir, f), 'utf8'));
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dep of Object.keys(manifest.dependencies ?? {})) add(dep, dir);
  };
  for (const pkg of packages) add(pkg, root);
  return texts.join('\n');
}

/**
 * The private member names of the source `files` (the bundle's own, paths from `root`) that no DOM,
 * JavaScript or dependency type declares and no string of those files names. Only the files the
 * bundle holds count: a key in code it leaves out (the collector's half of shared/) renames nothing.
 */
export function privateNames(root: string, files: string[]): string[] {
  const { names, others, packages } = scan(files.map((f) => resolve(root, f)));
  const libDir = join(packageDir('typescript', root), 'lib');
  const lib = readdirSync(libDir)
    .filter((f) => /^lib\..*\.d\.ts$/.test(f))
    .map((f) => readFileSync(join(libDir, f), 'utf8'));
  // A member declaration starts its line: `name: T`, `name?: T`, `name(…)`, `readonly name: T`, `get name()`…
  const members = /^\s*(?:(?:readonly|static|get|set|abstract|protected|public)\s+)*['"]?([A-Za-z_$][\w$]*)['"]?\??\s*[:(<]/gm;
  const declared = new Set([...[...lib, declarations(root, packages)].join('\n').matchAll(members)].map((m) => m[1]));
  return [...names].filter((n) => !declared.has(n) && !others.has(n)).sort();
}

/** A member name as a RegExp's source: `$` is a letter of a name there, not the end of the input. */
export const nameSource = (name: string): string => name.replaceAll('$', '\\$');

/**
 * Those of `names` that `code` (a bundled library's) uses as a property: shortened, esbuild would
 * rename its accesses to them too, but not a key it writes as a string.
 */
export const usedAsProperty = (code: string, names: string[]): string[] =>
  // A spread (`...opts`) names a variable, not a property.
  names.filter((name) => new RegExp(`(?<!\\.\\.)[.'"\`]${nameSource(name)}(?![\\w$])|(?<![\\w$])${nameSource(name)}\\s*:`).test(code));
