/**
 * Node flags of a process that serves the engine headless: `npm run serve` passes them (package.json,
 * checked by test/engine/engine-node-flags.test.ts) and so does the bench's engine.
 *
 * `--max-semi-space-size=2`: under a steady load V8 grows its young generation to 2 × 16 MB and
 * keeps it; at 2 × 2 MB the engine's RSS after row 4's load of `npm run bench` is about 28 MB lower
 * (more than the WAL checkpointer's worker thread takes), rows 1-2 did not move and row 3 lost
 * about a tenth of its orders per second, still well above its target (docs/performance.md). The
 * desktop app does not get it: Electron reads V8 flags for its main process only from its own
 * command line. Measured for row 4's memory and not kept (issue 20): `--no-maglev` (8 MB less,
 * row 3 a quarter slower) and `--max-semi-space-size=1` (3 MB less, row 3 slower).
 */
export const ENGINE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2'];
