// Lint rules, and which packages each layer may use (the folders' boundaries: .dependency-cruiser.cjs).
import tseslint from 'typescript-eslint';

const layer = (files, forbidden, message) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: forbidden.map((group) => ({ group: [group], message })) }],
  },
});

const STORES_ONLY_IN_SERVICES =
  'doors reach data only through services (docs/architecture.md): call a use case in src/engine/services, never engine.stores';

const TX_STORES_IN_SERVICES =
  'services take their stores from the transaction (tx.stores), never engine.stores: on PostgreSQL that is another connection, outside it';

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'test-artifacts/**', 'bench-results/**', '.tmp/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  // Which folder may import which: .dependency-cruiser.cjs (npm run lint:deps, default-deny, no
  // cycles). Here: which packages each layer may use.
  layer(['src/engine/domain/**'], ['better-sqlite3', 'pg', 'fastify', 'electron', 'electron-store'], 'domain is pure rules: no I/O'),
  layer(['src/engine/store/**', 'src/engine/services/**'], ['fastify', 'electron', 'electron-store'], 'store and services know SQLite, never a transport'),
  layer(['src/engine/**', 'src/sync/**', 'src/host/**', 'src/cli/**'], ['electron', 'electron-store'], 'the engine, sync, the host and the CLIs run in plain Node'),
  layer(['src/shared/**'], ['node:*', 'electron', 'better-sqlite3', 'pg'], 'shared holds pure types and rules for both processes'),
  layer(['src/renderer/**'], ['node:*', 'electron', 'better-sqlite3', 'pg'], 'the renderer runs in a browser'),
  // Doors reach data only through services: the SQLite gateways (`engine.stores`) are for the
  // services and the store itself. A door that needs a read or a write calls (or adds) a use case.
  {
    files: ['src/engine/**', 'src/sync/**', 'src/host/**', 'src/cli/**', 'src/main/**'],
    ignores: [
      'src/engine/services/**',
      'src/engine/store/**',
      'src/engine/engine.ts',
      'src/engine/stores.ts',
      'src/engine/transaction.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[property.name='stores']", message: STORES_ONLY_IN_SERVICES },
        { selector: "ObjectPattern > Property[key.name='stores']", message: STORES_ONLY_IN_SERVICES },
      ],
    },
  },
  // Issue 34: inside a transaction the services read and write through its handle (`tx.stores`):
  // on PostgreSQL `engine.stores` would be another connection, outside the transaction (the stock
  // take, the order number and the event would each commit alone). So services never name it; a
  // read outside any transaction opens one (`engine.read`), and a use case that may run inside
  // another's takes the caller's `tx` last (`engine.within` / `engine.readWithin`).
  {
    files: ['src/engine/services/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='engine'][property.name='stores'], MemberExpression[object.property.name='engine'][property.name='stores']",
          message: TX_STORES_IN_SERVICES,
        },
        { selector: "VariableDeclarator[init.name='engine'] > ObjectPattern > Property[key.name='stores']", message: TX_STORES_IN_SERVICES },
      ],
    },
  },
  // Issue 34: the services are async. A promise dropped (a write not awaited, an async callback
  // where a plain one is expected) is a bug the types alone do not catch: typed rules. (Not
  // require-await: async functions without an await are how the SQLite side meets async interfaces.)
  {
    files: ['src/**/*.ts', 'src/**/*.tsx', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's own: the runner awaits what they return.
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false, properties: false } }],
    },
  },
  { files: ['src/**/cli/**', 'src/engine/restaurant-config/write-json-schema.ts', 'scripts/**'], rules: { 'no-console': 'off' } },
  {
    files: ['test/**', 'bench/**'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
