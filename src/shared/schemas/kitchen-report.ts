// Informes (issue 33): how the kitchen did over a day or a range at one location, the figures the
// manager's screen draws and the API exports (GET /reports/kitchen, CSV and JSON). One source: these
// schemas validate, type the engine's answer and generate the OpenAPI document.
import Type, { type Static } from 'typebox';
import { DateTimeOut, named, Nullable, UuidOut } from './common.ts';
import { REPORT_TABLE_NAMES } from './kitchen-report-query.ts';

export { KitchenReportQuery, KitchenReportTableParams, KitchenReportTableQuery, MAX_REPORT_DAYS, REPORT_TABLE_NAMES } from './kitchen-report-query.ts';

const Seconds = (description: string) => Nullable(Type.Integer({ description }));

const Share = named(
  'PromiseShare',
  Type.Object({
    key: Type.String({ description: 'The channel, local hour (00–23) or station.' }),
    ready: Type.Integer({ minimum: 0, description: 'Orders ready.' }),
    kept: Type.Integer({ minimum: 0, description: 'Of them, ready by their promise.' }),
    share: Nullable(Type.Number({ minimum: 0, maximum: 1, description: 'kept / ready.' })),
  }),
);

const BUMP_REASONS = ['mass_bump', 'too_fast', 'left_open'] as const;

export const KitchenReport = named(
  'KitchenReport',
  Type.Object({
    location_id: UuidOut(),
    from: Type.String({ description: 'First day (local).' }),
    to: Type.String({ description: 'Last day included (local).' }),
    time_zone: Type.String({ description: 'The restaurant\'s IANA zone: days, hours and slots are local to it.' }),
    generated_at: DateTimeOut(),
    slot_minutes: Type.Integer({ description: 'The rush strip\'s slot: 15 minutes for up to 2 days, 60 for up to 14, a day beyond.' }),
    tickets: Type.Object(
      {
        fired: Type.Integer({ description: 'Tickets (orders) that reached the kitchen in the period.' }),
        counted: Type.Integer({ description: 'Finished, not cancelled, with no implausible bump: the ones every ticket figure counts.' }),
        open: Type.Integer({ description: 'Not finished and not cancelled.' }),
        cancelled: Type.Integer(),
        left_out: Type.Integer({ description: 'Left out of every figure as implausible (see `excluded`).' }),
      },
      { description: 'A ticket\'s time runs from its firing to its last line done.' },
    ),
    rush: Type.Array(
      Type.Object({
        start: DateTimeOut(),
        end: DateTimeOut(),
        finished: Type.Integer({ description: 'Counted tickets whose last line was done in the slot.' }),
        p50_seconds: Seconds('Median ticket time of those (not the mean).'),
        p90_seconds: Seconds('p90 ticket time of those.'),
        in_progress: Type.Union([Type.Integer(), Type.Null()], { description: 'Tickets fired and neither done nor cancelled at the slot\'s end (at the report\'s `generated_at` for the slot holding it); null for a slot that has not begun.' }),
      }),
    ),
    heatmap: Type.Array(
      Type.Object({
        station_id: Type.String(),
        station_name: Type.String(),
        hour: Type.Integer({ minimum: 0, maximum: 23, description: 'Local hour the station\'s last line of the ticket was done.' }),
        p90_seconds: Type.Integer({ description: 'p90 of the ticket\'s firing to its last line at this station done.' }),
        tickets: Type.Integer(),
      }),
    ),
    items: Type.Array(
      Type.Object({
        station_id: Type.String(),
        product_id: Type.String(),
        product_name: Type.String(),
        count: Type.Integer({ description: 'Lines counted.' }),
        excluded: Type.Integer({ description: 'Lines left out as implausible.' }),
        median_seconds: Seconds('Median cook time of one unit (a line\'s known start to its bump).'),
        p90_seconds: Seconds('p90 cook time of one unit.'),
        typed_seconds: Type.Integer({ description: 'The restaurant file\'s prep time of one unit (8 minutes when it types none).' }),
        learned_seconds: Seconds('The learned median in use now; null while too few samples (the typed one is used).'),
      }),
    ),
    promises: Type.Object({
      orders: Type.Integer({ description: 'Orders given a promise in the period.' }),
      ready: Type.Integer(),
      not_ready: Type.Integer({ description: 'Never ready: cancelled or still open.' }),
      kept: Type.Integer({ description: 'Ready by (at or before) their promised time.' }),
      asked_quantile: Type.Number({ description: 'The share the promise is asked to cover (the restaurant file\'s promise_quantile).' }),
      kept_share: Nullable(Type.Number({ minimum: 0, maximum: 1, description: 'kept / ready: what it got.' })),
      lateness_p50_seconds: Seconds('Median of ready minus promised (negative: early).'),
      lateness_p90_seconds: Seconds('p90 of ready minus promised.'),
      histogram: Type.Array(
        Type.Object({
          from_minutes: Nullable(Type.Number({ description: 'Minutes after the promise, inclusive; null: open below.' })),
          to_minutes: Nullable(Type.Number({ description: 'Exclusive; null: open above.' })),
          orders: Type.Integer(),
        }),
      ),
      by_channel: Type.Array(Share),
      by_hour: Type.Array(Share),
      by_station: Type.Array(Share),
    }),
    busy: Type.Array(
      Type.Object({
        from: DateTimeOut('When the location paused (store fronts\' orders refused).'),
        to: Nullable(DateTimeOut('When it resumed; null: still paused at the period\'s end.')),
        reason: Type.String({ description: '`kitchen_wait` or `manager`.' }),
        wait_minutes: Type.Integer({ description: 'The kitchen\'s wait when it paused.' }),
        refused: Type.Integer({ description: 'Store fronts\' orders it refused (counted by the minute they came in).' }),
      }),
      { description: 'Busy mode\'s paused stretches.' },
    ),
    busy_refusals: Type.Object(
      {
        refused: Type.Integer({ description: 'Every order refused in the period (a flood of retries counts each request).' }),
        list: Type.Array(
          Type.Object({
            at: DateTimeOut('When it came in.'),
            channel: Type.String({ description: 'The store front (its API key\'s label).' }),
            type: Type.String({ description: 'The order\'s type (retiro, delivery…).' }),
            lines: Type.Integer({ description: 'Its lines.' }),
            total: Type.Number({ description: 'Its total as priced, in the restaurant\'s currency.' }),
          }),
        ),
        list_truncated: Type.Boolean({ description: 'True when the list stops at 500, or a minute had more than 5 (listed: its first 5; the count is complete).' }),
      },
      { description: 'The orders busy mode refused: each location keeps, per minute, the count and the first 5.' },
    ),
    recalls: Type.Array(Type.Object({ order_id: UuidOut(), number: Type.String(), at: DateTimeOut() }), { description: 'Finished tickets recalled to the screens.' }),
    cancellations: Type.Array(
      Type.Object({ order_id: UuidOut(), number: Type.String(), created_at: DateTimeOut(), cancelled_at: DateTimeOut(), reached_kitchen: Type.Boolean() }),
      { description: 'Orders created in the period and cancelled.' },
    ),
    excluded: Type.Object(
      {
        bumps: Type.Object({ mass_bump: Type.Integer(), too_fast: Type.Integer(), left_open: Type.Integer() }, { description: 'Implausible line bumps of the period\'s tickets, by reason.' }),
        tickets_left_open: Type.Integer({ description: 'Tickets over 2 hours from firing to done, or still open 2 hours after firing.' }),
        list: Type.Array(
          Type.Object({
            order_id: UuidOut(),
            number: Type.String(),
            item_index: Nullable(Type.Integer({ description: 'The line; null for a ticket left open as a whole.' })),
            station_id: Nullable(Type.String()),
            product_id: Nullable(Type.String()),
            reason: Type.Enum([...BUMP_REASONS]),
            seconds: Seconds('The line\'s cook time, or the ticket\'s time so far.'),
            at: DateTimeOut('The bump, or the ticket\'s firing.'),
          }),
        ),
        list_truncated: Type.Boolean({ description: 'True when the list stops at 500 (the counts are complete).' }),
      },
      { description: 'Left out of every figure: mass bumps (4 or more lines of one station within 10 s), bumps under a quarter of the learned (else typed) time, lines over 4 times it or 2 hours, tickets left open.' },
    ),
  }),
);
export type KitchenReport = Static<typeof KitchenReport>;

const Cell = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

export const KitchenReportTable = named(
  'KitchenReportTable',
  Type.Object({
    table: Type.Enum([...REPORT_TABLE_NAMES]),
    columns: Type.Array(Type.String(), { description: 'The columns, in the CSV\'s order.' }),
    data: Type.Array(Type.Record(Type.String(), Cell), { description: 'One object per row, by column.' }),
  }),
);

export const KitchenReportCsv = Type.String({ description: 'RFC 4180 CSV, UTF-8, CRLF, a header row.' });
