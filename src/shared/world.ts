// The two worlds every restaurant lives in: `live` (real orders, real money) and `test` (the
// sandbox: simulated payments and couriers, never mixed with live data). Keys, orders, events,
// stock and payment providers each belong to one. Stored as `test` 0/1 in SQLite.
export const WORLDS = ['live', 'test'] as const;
export type World = (typeof WORLDS)[number];

/** The `test` 0/1 a row of `world` is stored with: for the SQL column alone (stores), never a signature. */
export function testColumn(world: World): 0 | 1 {
  return world === 'test' ? 1 : 0;
}

/** The world of a stored row (`test` 0/1) or of a flag. */
export function worldOf(test: number | boolean): World {
  return test === 1 || test === true ? 'test' : 'live';
}
