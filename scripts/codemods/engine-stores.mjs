#!/usr/bin/env node
// Codemod (issue 20): `engine.<store>` -> `engine.stores.<store>`.
//
// The SQLite gateways moved from Engine's own fields into one `Stores` object
// (src/engine/stores.ts), held as `engine.stores`. This rewrites every property access whose
// receiver is typed `Engine` (whatever it is called: engine, this.engine, deps.engine,
// t.server.engine, replicaEngine, opened?, engine!) and whose name is a field of `Stores`, in
// src/, test/, bench/ and scripts/. It asks the TypeScript checker for the receiver's type, so a
// zustand store, a `stores` variable or an `orders` array elsewhere is never touched.
//
// Re-runnable: an access already written `engine.stores.<store>` has a `Stores` receiver and is
// left alone, so a second run changes nothing. The store names come from the fields of
// `class Stores` in src/engine/stores.ts: a branch that added a store to Engine moves its field
// (and its construction) into Stores, then runs this again.
//
//   npm exec -- node scripts/codemods/engine-stores.mjs            rewrite the files
//   npm exec -- node scripts/codemods/engine-stores.mjs --check    list what would change, exit 1 if anything
//   ... --stores printJobs,foo                                     also treat these names as stores
//
// The same pass moves the providers (src/engine/providers.ts) a started server used to expose
// itself: `server.payments` / `server.couriers` on an `EngineServer` -> `server.providers.payments`
// / `server.providers.couriers`.
//
// It also reports (without rewriting) what it cannot rewrite safely: destructuring a store out of
// an Engine (`const { orders } = engine`), and Engine fields still typed `*Store` (not moved yet).
// Needs only the project's `typescript` devDependency; run from the repository root.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const ts = require('typescript');

const root = process.cwd();
const args = process.argv.slice(2);
const check = args.includes('--check');
const extraAt = args.indexOf('--stores');
const extraStores = extraAt >= 0 ? (args[extraAt + 1] ?? '').split(',').map((name) => name.trim()).filter(Boolean) : [];
const ROOTS = ['src', 'test', 'bench', 'scripts'];
const ENGINE_FILE = path.join(root, 'src/engine/engine.ts');
const STORES_FILE = path.join(root, 'src/engine/stores.ts');

/** The field names of `class Stores` (and `interface Stores`, should it become one). */
function storeNames() {
  const source = ts.createSourceFile(STORES_FILE, readFileSync(STORES_FILE, 'utf8'), ts.ScriptTarget.Latest, true);
  const names = new Set(extraStores);
  source.forEachChild((node) => {
    if ((ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node)) && node.name?.text === 'Stores') {
      for (const member of node.members) {
        if ((ts.isPropertyDeclaration(member) || ts.isPropertySignature(member)) && ts.isIdentifier(member.name)) names.add(member.name.text);
      }
    }
  });
  if (names.size === 0) throw new Error(`no fields found in class Stores of ${STORES_FILE}`);
  return names;
}

const stores = storeNames();
const configPath = path.join(root, 'tsconfig.json');
const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
if (!config) throw new Error('cannot read tsconfig.json');
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
const checker = program.getTypeChecker();

/** True when `type` is the class or interface `name` declared in `file` (or a union holding it: `Engine | null`). */
function isDeclared(type, name, file) {
  if (type.isUnion()) return type.types.some((member) => isDeclared(member, name, file));
  const symbol = type.getSymbol() ?? type.aliasSymbol;
  if (!symbol || symbol.getName() !== name) return false;
  return (symbol.getDeclarations() ?? []).some((declaration) => path.resolve(declaration.getSourceFile().fileName) === file);
}
const isEngine = (type) => isDeclared(type, 'Engine', ENGINE_FILE);
const SERVER_FILE = path.join(root, 'src/host/start-engine-server.ts');
const PROVIDERS_ON_SERVER = new Set(['payments', 'couriers']);
const isServer = (type) => isDeclared(type, 'EngineServer', SERVER_FILE);

const inScope = (fileName) => {
  const relative = path.relative(root, path.resolve(fileName));
  return !relative.startsWith('..') && ROOTS.some((dir) => relative.startsWith(dir + path.sep)) && !relative.includes(`node_modules${path.sep}`);
};

let changedFiles = 0;
let changedAccesses = 0;
const warnings = [];

for (const source of program.getSourceFiles()) {
  if (source.isDeclarationFile || !inScope(source.fileName)) continue;
  /** Offsets where text is inserted: `stores.` before a store's name, `['stores']` after a type `Engine`. */
  const inserts = [];
  const visit = (node) => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.name) && stores.has(node.name.text)) {
      if (isEngine(checker.getTypeAtLocation(node.expression))) inserts.push({ at: node.name.getStart(source), text: 'stores.' });
    }
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.name) && PROVIDERS_ON_SERVER.has(node.name.text)) {
      if (isServer(checker.getTypeAtLocation(node.expression))) inserts.push({ at: node.name.getStart(source), text: 'providers.' });
    }
    // Types: Engine['orders'] -> Engine['stores']['orders'].
    if (
      ts.isIndexedAccessTypeNode(node) &&
      ts.isLiteralTypeNode(node.indexType) &&
      ts.isStringLiteral(node.indexType.literal) &&
      stores.has(node.indexType.literal.text) &&
      isEngine(checker.getTypeFromTypeNode(node.objectType))
    ) {
      inserts.push({ at: node.objectType.getEnd(), text: "['stores']" });
    }
    if (ts.isVariableDeclaration(node) && node.initializer && ts.isObjectBindingPattern(node.name) && isEngine(checker.getTypeAtLocation(node.initializer))) {
      for (const element of node.name.elements) {
        const name = (element.propertyName ?? element.name).getText(source);
        if (stores.has(name)) warnings.push(`${where(source, element)}: destructures store "${name}" from an Engine; write engine.stores instead`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (inserts.length === 0) continue;
  changedFiles++;
  changedAccesses += inserts.length;
  const relative = path.relative(root, source.fileName);
  if (check) {
    for (const { at } of inserts) console.log(`${relative}:${source.getLineAndCharacterOfPosition(at).line + 1}`);
    continue;
  }
  let text = source.getFullText();
  for (const { at, text: inserted } of [...inserts].sort((a, b) => b.at - a.at)) text = text.slice(0, at) + inserted + text.slice(at);
  writeFileSync(source.fileName, text);
  console.log(`${relative}: ${inserts.length}`);
}

/** Engine's own fields typed as a store: they belong in Stores (a merged branch may have added one). */
const engineSource = program.getSourceFile(ENGINE_FILE);
engineSource?.forEachChild((node) => {
  if (!ts.isClassDeclaration(node) || node.name?.text !== 'Engine') return;
  for (const member of node.members) {
    if (ts.isPropertyDeclaration(member) && member.type && /Store\b/.test(member.type.getText(engineSource))) {
      warnings.push(`${where(engineSource, member)}: Engine still holds ${member.name.getText(engineSource)} (a store): move it into class Stores (src/engine/stores.ts) and run again`);
    }
  }
});

function where(source, node) {
  return `${path.relative(root, source.fileName)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
}

for (const warning of warnings) console.warn(`warning: ${warning}`);
console.log(`${check ? 'would rewrite' : 'rewrote'} ${changedAccesses} access(es) in ${changedFiles} file(s); stores: ${[...stores].join(', ')}`);
if (check && changedAccesses > 0) process.exitCode = 1;
