// The import boundaries of docs/architecture.md, default-deny: every folder of src/ is one element,
// and an import is allowed only when a rule below lists it. `npm run lint:deps` (run by `npm run
// lint`, so by CI) fails on any other import and on any cycle, type-only imports included.
// `npm run docs:deps` draws the imports as they are, folder by folder, into docs/dependencies.md.
//
// The picture, inner to outer (an arrow reads "may import"):
//   shared  <-  engine/domain  <-  engine/store  <-  engine core (engine.ts, stores.ts, clock, notifier)
//   shared  <-  engine/domain  <-  restaurant-config (the restaurant file's schema and validator: pure)
//           <-  providers (adapters, payments, couriers, mail, printers), restaurant-config  <-  engine/services  <-  their assembly (providers.ts)
//           <-  demo  <-  engine/screen  <-  doors (engine/http, engine/jobs, sync)
//           <-  host  <-  cli, main
//   preload -> shared;  renderer -> shared, preload (the bridge's types)

/** One element per folder: its name and the path it covers. */
const E = {
  shared: '^src/shared/',
  domain: '^src/engine/domain/',
  store: '^src/engine/store/',
  // engine.ts, stores.ts, clock, notifier, …: everything at the engine's top level but providers.ts.
  core: '^src/engine/(?!providers\\.ts$)[^/]+\\.ts$',
  // The providers' assembly (Providers, assembleProviders): used where the app starts and typed by what calls them.
  assembly: '^src/engine/providers\\.ts$',
  adapters: '^src/engine/adapters/',
  payments: '^src/engine/payments/',
  couriers: '^src/engine/couriers/',
  mail: '^src/engine/mail/',
  printers: '^src/engine/printers/',
  // The async storage port and its SQLite twin (issue 34); PostgreSQL's implementation, its pool,
  // migrations and LISTEN connection, which the Engine runs on when given a PostgreSQL database.
  storage: '^src/engine/storage/',
  postgres: '^src/engine/postgres/',
  services: '^src/engine/services/',
  restaurantConfig: '^src/engine/restaurant-config/',
  demo: '^src/engine/demo/',
  screen: '^src/engine/screen/',
  http: '^src/engine/http/',
  jobs: '^src/engine/jobs/',
  sync: '^src/sync/',
  host: '^src/host/',
  cli: '^src/cli/',
  main: '^src/main/',
  preload: '^src/preload/',
  renderer: '^src/renderer/',
};

const engineInner = [E.domain, E.store, E.core, E.shared];
/** What a door or an application layer may import below services: never the store itself. */
const belowServices = [E.domain, E.core, E.shared];
const providers = [E.adapters, E.payments, E.couriers, E.mail, E.printers, E.assembly];
const engineAll = Object.entries(E)
  .filter(([name]) => !['sync', 'host', 'cli', 'main', 'preload', 'renderer'].includes(name))
  .map(([, path]) => path);

/** from -> the elements it may import (itself always included). */
const may = [
  [E.shared, []],
  [E.domain, [E.shared]],
  [E.store, [E.domain, E.shared]],
  // The Engine holds the connection, the stores, the clock and the notifier; no provider lives on it.
  // It runs on either database (issue 34): on PostgreSQL its transactions go through the storage
  // port's pieces (the connection gate, the commit signal) and postgres/ (runTransaction, the
  // stores' registry, the clock row and the key claim), as Actual's db/ sits behind its platform
  // module. Services still see only `tx.stores`.
  [E.core, [E.store, E.domain, E.shared, E.storage, E.postgres]],
  [E.adapters, [E.domain, E.shared]],
  [E.couriers, [E.domain, E.shared, E.adapters]],
  [E.mail, [E.domain, E.shared, E.adapters]],
  // Kitchen printers: the ticket's content, its ESC/POS bytes, the raw TCP send (docs/printers.md).
  [E.printers, [E.domain, E.shared, E.adapters]],
  // configured-providers is handed a reader of each restaurant's credentials: no Engine needed.
  [E.payments, [E.domain, E.shared, E.adapters]],
  // Assembles them once for a host, reading the stored credentials through a service.
  [E.assembly, [E.core, E.domain, E.shared, E.adapters, E.payments, E.couriers, E.mail, E.printers, E.services]],
  [E.storage, [E.core, E.store, E.domain, E.shared]],
  [E.postgres, [E.storage, E.core, E.store, E.domain, E.shared]],
  // The restaurant file's schema, validator and stations are pure rules; its import is a service.
  [E.restaurantConfig, [E.domain, E.shared]],
  [E.services, [...engineInner, ...providers.filter((provider) => provider !== E.assembly), E.restaurantConfig]],
  [E.demo, [...belowServices, ...providers, E.services, E.restaurantConfig]],
  // The screens' application layer: what both transports (HTTP kitchen door, Electron IPC) call.
  [E.screen, [...belowServices, E.services]],
  // Doors: they reach the database through services, never through a store.
  [E.http, [...belowServices, ...providers, E.services, E.screen]],
  [E.jobs, [...belowServices, ...providers, E.services]],
  [E.sync, [...belowServices, E.services]],
  [E.host, [...engineAll, E.sync]],
  [E.cli, [...engineAll, E.sync, E.host]],
  [E.main, [...engineAll, E.sync, E.host]],
  [E.preload, [E.shared]],
  // The renderer runs in a browser: shared rules and the bridge's types, nothing of Node.
  [E.renderer, [E.shared, E.preload]],
];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle, type-only imports included, makes two modules one: break it by moving what both need inward.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-orphan-folder',
      comment: 'Every file of src/ belongs to one element of .dependency-cruiser.cjs; a new folder gets its place in the picture first.',
      severity: 'error',
      from: { path: '^src/', pathNot: Object.values(E) },
      to: {},
    },
  ],
  allowed: [
    // Outside packages and Node built-ins: the eslint rules say which layer may use which package.
    { from: { path: '^src/' }, to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'core'] } },
    ...may.map(([from, to]) => ({ from: { path: from }, to: { path: [from, ...to] } })),
    // Exception 1: the replica reads the store's row types (outbox rows, order rows) without calling
    // a store: type-only, nothing at run time.
    { from: { path: E.sync }, to: { path: E.store, dependencyTypes: ['type-only'] } },
  ],
  allowedSeverity: 'error',
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|out)/' },
    includeOnly: '^src/',
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.json'] },
  },
};
