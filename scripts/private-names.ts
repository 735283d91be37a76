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
 * property: as a member (of a class, an interface or a type, or accessed on something other than
 * `this`), or as a key (an object's, a destructured one, or in a string: the names of options,
 * events and the wire format among them); and every package whose code it imports.
 */
function scan(files: string[]): { names: Set<string>; members: Set<string>; keys: Set<string>; packages: Set<string> } {
  const names = new Set<string>();
  const members = new Set<string>();
  const keys = new Set<string>();
  const packages = new Set<string>();
  const visit = (node: ts.Node): void => {
    const member = ts.isPropertyDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isParameter(node);
    if (member && ts.isIdentifier(node.name) && ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Private) names.add(node.name.text);
    // An object literal's method is a key, though the node is the same kind as a class's method.
    else if (ts.isObjectLiteralElement(node) && ts.isObjectLiteralExpression(node.parent) && node.name && ts.isIdentifier(node.name)) keys.add(node.name.text);
    else if ((ts.isClassElement(node) || ts.isTypeElement(node)) && node.name && ts.isIdentifier(node.name)) members.add(node.name.text);
    else if (ts.isPropertyAccessExpression(node) && node.expression.kind !== ts.SyntaxKind.ThisKeyword) members.add(node.name.text);
    else if (ts.isBindingElement(node) && node.propertyName && ts.isIdentifier(node.propertyName)) keys.add(node.propertyName.text);
    else if (ts.isBindingElement(node) && !node.propertyName && ts.isObjectBindingPattern(node.parent) && ts.isIdentifier(node.name)) keys.add(node.name.text);
    // A string may name a property (`this['timer']`, `'timer' in x`), which esbuild leaves as written.
    else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) keys.add(node.text);
    // A package imported for its types alone (`import type { Hono } from 'hono'`, in shared code for the collector) puts
    // none of its objects in the bundle: the names its declarations use stay free to shorten.
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && !typeOnly(node)) {
      const spec = node.moduleSpecifier.text;
      if (!spec.startsWith('.')) packages.add(spec.split('/', spec.startsWith('@') ? 2 : 1).join('/'));
    }
    ts.forEachChild(node, visit);
  };
  for (const file of files) visit(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
  return { names, members, keys, packages };
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
 * The members of the bundle's own classes, private or not, that the bundle's page-facing API (what
 * `entry` exports, which the page reaches) does not name, and whose every use the type checker
 * traces to such a member: to a class, or to an interface a class implements (the controllers'
 * `SignalSink`…), never to an object's shape (a config, a collector's answer). Of the names `free`
 * says no other object's property or key shares, which only `privateNames` knows.
 */
function internalMembers(files: string[], entry: string, free: (name: string) => boolean): Set<string> {
  const config = ts.findConfigFile(dirname(entry), ts.sys.fileExists);
  const { options } = ts.parseJsonConfigFileContent(config ? ts.readConfigFile(config, ts.sys.readFile).config : {}, ts.sys, dirname(config ?? entry));
  const program = ts.createProgram(files, { ...options, noEmit: true });
  const checker = program.getTypeChecker();
  // The bundle's files and those they import types from: the project's, not a package's or TypeScript's.
  const own = new Set(program.getSourceFiles().filter((f) => !program.isSourceFileFromExternalLibrary(f) && !program.isSourceFileDefaultLibrary(f)));
  const isOwn = (node: ts.Node) => own.has(node.getSourceFile());
  // The interfaces the bundle's classes implement, and those these extend.
  const implemented = new Set<ts.Node>();
  const implement = (type: ts.Type): void => {
    for (const d of type.symbol?.declarations ?? [])
      if (ts.isInterfaceDeclaration(d) && isOwn(d) && !implemented.has(d)) {
        implemented.add(d);
        for (const base of checker.getBaseTypes(checker.getDeclaredTypeOfSymbol(type.symbol) as ts.InterfaceType)) implement(base);
      }
  };
  const internal = (d: ts.Node) =>
    isOwn(d) &&
    ((ts.isClassElement(d) && ts.isClassLike(d.parent)) ||
      ts.isParameterPropertyDeclaration(d, d.parent) ||
      (ts.isTypeElement(d) && implemented.has(d.parent)));
  const candidates = new Set<string>();
  const untraced = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isClassLike(node))
      for (const clause of node.heritageClauses ?? [])
        for (const t of clause.types) if (clause.token === ts.SyntaxKind.ImplementsKeyword) implement(checker.getTypeAtLocation(t));
    ts.forEachChild(node, visit);
  };
  const declared = (node: ts.Node): void => {
    const member =
      (ts.isClassElement(node) || ts.isTypeElement(node) || ts.isParameterPropertyDeclaration(node, node.parent)) && !ts.isObjectLiteralExpression(node.parent);
    if (member && node.name && ts.isIdentifier(node.name) && free(node.name.text)) (internal(node) ? candidates : untraced).add(node.name.text);
    ts.forEachChild(node, declared);
  };
  // Only the uses of candidates are traced, and only names `free` says no other object has: the checker's work is by far the longest part.
  const used = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && candidates.has(node.name.text)) {
      const declarations = checker.getSymbolAtLocation(node.name)?.declarations ?? [];
      if (!declarations.length || !declarations.every(internal)) untraced.add(node.name.text);
    }
    ts.forEachChild(node, used);
  };
  for (const f of own) visit(f);
  for (const f of own) declared(f);
  for (const f of own) used(f);
  const api = apiNames(checker, program.getSourceFile(entry)!, isOwn);
  return new Set([...candidates].filter((n) => !untraced.has(n) && !api.has(n)));
}

/**
 * Every member name of the types `entry` exports, and of the types theirs hold, as far as those are
 * the bundle's own: the page calls them, passes them, and reads them (a class's private members too:
 * the page sees those on its objects, and a subclass may mean to leave them alone).
 */
function apiNames(checker: ts.TypeChecker, entry: ts.SourceFile, isOwn: (node: ts.Node) => boolean): Set<string> {
  const names = new Set<string>();
  const seen = new Set<ts.Type>();
  const walk = (type: ts.Type): void => {
    if (seen.has(type)) return;
    seen.add(type);
    if (type.isUnionOrIntersection()) type.types.forEach(walk);
    if (type.flags & ts.TypeFlags.Object && (type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference)
      checker.getTypeArguments(type as ts.TypeReference).forEach(walk);
    for (const info of checker.getIndexInfosOfType(type)) walk(info.type);
    for (const sig of [...type.getCallSignatures(), ...type.getConstructSignatures()]) {
      for (const p of sig.parameters) walk(checker.getTypeOfSymbol(p));
      walk(sig.getReturnType());
    }
    for (const prop of type.getProperties()) {
      names.add(prop.name);
      const decls = prop.declarations ?? [];
      if (decls.some(isOwn) && !decls.every((d) => ts.getCombinedModifierFlags(d) & ts.ModifierFlags.Private)) walk(checker.getTypeOfSymbol(prop));
    }
  };
  for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(entry)!)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (symbol.flags & ts.SymbolFlags.Value) walk(checker.getTypeOfSymbol(symbol));
    if (symbol.flags & ts.SymbolFlags.Type) walk(checker.getDeclaredTypeOfSymbol(symbol));
  }
  return names;
}

/**
 * The member names of the source `files` (the bundle's own, paths from `root`) that may be shortened:
 * their private members, and (given the bundle's `entry`) the other members of its classes that
 * the page does not reach (see `internalMembers`), where no DOM, JavaScript or dependency type
 * declares the name, no key or string of those files names it, and (for a private member) no
 * other object of those files has it. Only the files the bundle holds count: a key in code it
 * leaves out (the collector's half of shared/) renames nothing.
 */
export function privateNames(root: string, files: string[], entry?: string): string[] {
  const paths = files.map((f) => resolve(root, f));
  const { names, members, keys, packages } = scan(paths);
  const libDir = join(packageDir('typescript', root), 'lib');
  const lib = readdirSync(libDir)
    .filter((f) => /^lib\..*\.d\.ts$/.test(f))
    .map((f) => readFileSync(join(libDir, f), 'utf8'));
  // A member declaration starts its line: `name: T`, `name?: T`, `name(…)`, `readonly name: T`, `get name()`…
  const memberLine = /^\s*(?:(?:readonly|static|get|set|abstract|protected|public)\s+)*['"]?([A-Za-z_$][\w$]*)['"]?\??\s*[:(<]/gm;
  const declared = new Set([...[...lib, declarations(root, packages)].join('\n').matchAll(memberLine)].map((m) => m[1]));
  const shortened = new Set([...names].filter((n) => !members.has(n)));
  if (entry) for (const n of internalMembers(paths, resolve(root, entry), (n) => !declared.has(n) && !keys.has(n))) shortened.add(n);
  return [...shortened].filter((n) => !declared.has(n) && !keys.has(n)).sort();
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
