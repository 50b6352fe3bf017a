// Array helpers for async callbacks that run one after another, in order: inside a transaction each
// callback's statements run before the next one's, as they did when the stores answered at once
// (issue 34). `items.map(async …)` would start them all and hand back promises.

export async function mapInOrder<T, R>(items: Iterable<T>, each: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let index = 0;
  for (const item of items) results.push(await each(item, index++));
  return results;
}

export async function flatMapInOrder<T, R>(items: Iterable<T>, each: (item: T, index: number) => Promise<readonly R[]>): Promise<R[]> {
  const results: R[] = [];
  let index = 0;
  for (const item of items) results.push(...(await each(item, index++)));
  return results;
}

export async function filterInOrder<T>(items: Iterable<T>, keep: (item: T, index: number) => Promise<boolean>): Promise<T[]> {
  const results: T[] = [];
  let index = 0;
  for (const item of items) if (await keep(item, index++)) results.push(item);
  return results;
}

/** The first item `matches` holds for (the later ones are not asked), or undefined. */
export async function findInOrder<T>(items: Iterable<T>, matches: (item: T) => Promise<boolean>): Promise<T | undefined> {
  for (const item of items) if (await matches(item)) return item;
  return undefined;
}
