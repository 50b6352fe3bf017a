// The replay's lines and cook lanes (issue 33). The log does not say which cook took a line; the
// replay assigns it by the rule the learning uses (services/kitchen/learn-prep-times.ts, cookSamples): a
// station's N cooks take lines as they are bumped, each line started at the latest of its firing, its
// start tap and the moment a cook of its station was freed; it is drawn in that cook's lane (the one
// free the longest, the lowest lane on a tie). Pure.
import type { LogEntry } from './tickets.ts';

export interface ReplayLineDraft {
  order_id: string;
  station_id: string;
  product_id: string | null;
  quantity: number;
  fired_at: number;
  work_from: number;
  done_at: number | null;
  lane: number | null;
}

/**
 * The stints of the location's lines in `entries` (oldest first): each from a firing (or an un-bump)
 * to its bump, with its cook lane; a line never bumped is a stint without an end or a lane. Lines
 * without a station are not cooked anywhere and left out.
 */
export function replayLines(entries: readonly LogEntry[], cooks: ReadonlyMap<string, number>): ReplayLineDraft[] {
  const open = new Map<string, { draft: ReplayLineDraft; started: number | null }>();
  const lanesFree = new Map<string, number[]>();
  const drafts: ReplayLineDraft[] = [];
  const openLine = (entry: LogEntry & { station_id: string }, from: number) => {
    const draft: ReplayLineDraft = { order_id: entry.order_id, station_id: entry.station_id, product_id: entry.product_id, quantity: entry.quantity, fired_at: from, work_from: from, done_at: null, lane: null };
    drafts.push(draft);
    open.set(`${entry.order_id}\u001f${entry.item_index}`, { draft, started: null });
  };
  for (const entry of entries) {
    if (entry.station_id === null) continue;
    const key = `${entry.order_id}\u001f${entry.item_index}`;
    const line = open.get(key);
    if (entry.kind === 'fired') {
      // Fired again (a recall): the earlier stint, if never bumped, ends unfinished where it was.
      if (line && line.draft.done_at === null && line.draft.lane === null) drafts.splice(drafts.indexOf(line.draft), 1);
      openLine({ ...entry, station_id: entry.station_id }, entry.at);
    } else if (entry.kind === 'started' && line && line.draft.done_at === null) line.started = entry.at;
    else if (entry.kind === 'undone' && line && line.draft.done_at !== null) openLine({ ...entry, station_id: entry.station_id }, entry.at);
    else if (entry.kind === 'done' && line && line.draft.done_at === null) {
      const free = lanesFree.get(entry.station_id) ?? Array.from({ length: Math.max(1, cooks.get(entry.station_id) ?? 1) }, () => Number.NEGATIVE_INFINITY);
      lanesFree.set(entry.station_id, free);
      let lane = 0;
      for (let i = 1; i < free.length; i++) if (free[i]! < free[lane]!) lane = i;
      const draft = line.draft;
      draft.work_from = Math.min(entry.at, Math.max(draft.fired_at, line.started ?? Number.NEGATIVE_INFINITY, free[lane]!));
      draft.done_at = entry.at;
      draft.lane = lane;
      free[lane] = entry.at;
    }
  }
  for (const { draft, started } of open.values()) if (draft.done_at === null && started !== null) draft.work_from = started;
  return drafts;
}
