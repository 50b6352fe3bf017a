// The station × hour heatmap (issue 33): for each station and local hour, the p90 of the station's
// ticket time (the ticket's firing to its last line at that station done), over counted tickets,
// by the hour that last line was done. Pure.
import { quantile } from '../prep-times.ts';
import { countedTickets, type Ticket } from './tickets.ts';

export interface HeatCell {
  station_id: string;
  /** Local hour, 0–23. */
  hour: number;
  p90_seconds: number;
  tickets: number;
}

export function stationHourHeatmap(tickets: readonly Ticket[], hourOf: (ms: number) => number): HeatCell[] {
  // By station, then hour (no string key per ticket and station: a 90-day report has ~60,000).
  const byStation = new Map<string, { station_id: string; hour: number; times: number[] }[]>();
  for (const ticket of countedTickets(tickets)) {
    for (const [station, done] of ticket.stations) {
      if (done === null) continue;
      const hour = hourOf(done);
      let hours = byStation.get(station);
      if (!hours) byStation.set(station, (hours = []));
      const cell = (hours[hour] ??= { station_id: station, hour, times: [] });
      cell.times.push((done - ticket.fired_at) / 1000);
    }
  }
  const cells = [...byStation.values()].flatMap((hours) => hours.filter((cell) => cell !== undefined));
  return cells
    .map((c) => ({ station_id: c.station_id, hour: c.hour, p90_seconds: Math.round(quantile(c.times, 0.9)), tickets: c.times.length }))
    .sort((a, b) => (a.station_id < b.station_id ? -1 : a.station_id > b.station_id ? 1 : a.hour - b.hour));
}
