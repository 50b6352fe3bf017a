// Lint rules, and the import boundaries of docs/architecture.md enforced rather than hoped for.
import tseslint from 'typescript-eslint';

const layer = (files, forbidden, message) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: forbidden.map((group) => ({ group: [group], message })) }],
  },
});

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
  layer(['src/engine/domain/**'], ['**/store/**', '**/services/**', '**/http/**', '**/jobs/**', '**/cli/**', '**/engine.ts', 'better-sqlite3', 'fastify', 'electron'], 'domain is pure rules: no I/O, no outer layer'),
  layer(['src/engine/store/**'], ['**/services/**', '**/http/**', '**/jobs/**', '**/cli/**', 'fastify', 'electron'], 'store knows SQLite and the domain only'),
  layer(['src/engine/services/**'], ['**/http/**', '**/jobs/**', '**/cli/**', 'fastify', 'electron'], 'services are called by the doors, never the other way'),
  layer(['src/engine/**', 'src/sync/**'], ['electron', 'electron-store'], 'the engine and sync run in plain Node'),
  layer(['src/shared/**'], ['**/engine/**', '**/main/**', '**/renderer/**', '**/preload/**', '**/sync/**', 'node:*', 'electron', 'better-sqlite3'], 'shared holds pure types and rules for both processes'),
  layer(['src/renderer/**'], ['**/engine/**', '**/main/**', '**/sync/**', 'node:*', 'electron', 'better-sqlite3'], 'the renderer knows only src/shared and the preload bridge'),
  { files: ['src/**/cli/**', 'src/engine/restaurant-config/write-json-schema.ts', 'scripts/**'], rules: { 'no-console': 'off' } },
  {
    files: ['test/**', 'bench/**'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
