// What Informes reads of the board's state (issue 33), kept while it says the same. The board reads
// its whole snapshot again every 5 minutes (and after a silence): new arrays of the same locations
// and stations. Informes selected those arrays, so each re-read drew the whole screen again (every
// figure given the stations' names, and the replay): in a played replay, one of its last long tasks
// (docs/informes.md, round 11). A selector through `steadySelector` returns the value it returned
// last while the new one is the same data, so React draws nothing.

/**
 * A selector that returns its previous answer while the new one is equal as JSON (plain data: the
 * board's locations, stations, restaurant), else the new one.
 */
export function steadySelector<S, T>(select: (state: S) => T): (state: S) => T {
  let kept: { value: T; text: string } | null = null;
  return (state) => {
    const value = select(state);
    if (kept !== null && kept.value === value) return value;
    const text = JSON.stringify(value) ?? '';
    if (kept !== null && kept.text === text) return kept.value;
    kept = { value, text };
    return value;
  };
}
