// What a kitchen report is asked for (issue 33): a location and local days, and which table to
// export. Apart from the report's own schema so that the screens' channel table, which the kitchen
// board's bundle carries, takes these few lines only.
import Type, { type Static } from 'typebox';
import { named, Uuid } from './common.ts';

const CALENDAR_DAY = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';

/** At most this many days in one report (a quarter). */
export const MAX_REPORT_DAYS = 92;

export const KitchenReportQuery = named(
  'KitchenReportQuery',
  Type.Object(
    {
      location_id: Uuid('The location reported on.'),
      from: Type.String({ pattern: CALENDAR_DAY, description: 'First day, local to the restaurant (YYYY-MM-DD).', 'x-message': 'from must be a date YYYY-MM-DD' }),
      to: Type.Optional(
        Type.String({ pattern: CALENDAR_DAY, description: `Last day included (YYYY-MM-DD); absent: \`from\` alone. At most ${MAX_REPORT_DAYS} days.`, 'x-message': 'to must be a date YYYY-MM-DD' }),
      ),
    },
    { additionalProperties: false },
  ),
);
export type KitchenReportQuery = Static<typeof KitchenReportQuery>;

/** The tables of GET /reports/kitchen/{table} (REPORT_TABLES of kitchen-report-tables.ts). */
export const REPORT_TABLE_NAMES = ['rush', 'heatmap', 'items', 'promise_shares', 'histogram', 'busy', 'busy_refusals', 'recalls', 'cancellations', 'excluded', 'tickets', 'promises', 'item_timings'] as const;

export const KitchenReportTableParams = Type.Object({
  table: Type.Enum([...REPORT_TABLE_NAMES], { description: 'Which table.', 'x-message': `table must be one of ${REPORT_TABLE_NAMES.join(', ')}` }),
});

export const KitchenReportTableQuery = named(
  'KitchenReportTableQuery',
  Type.Object(
    {
      location_id: Uuid('The location reported on.'),
      from: Type.String({ pattern: CALENDAR_DAY, description: 'First day, local to the restaurant (YYYY-MM-DD).', 'x-message': 'from must be a date YYYY-MM-DD' }),
      to: Type.Optional(Type.String({ pattern: CALENDAR_DAY, description: 'Last day included (YYYY-MM-DD); absent: `from` alone.', 'x-message': 'to must be a date YYYY-MM-DD' })),
      format: Type.Optional(Type.Enum(['csv', 'json'], { description: '`csv` (default): text/csv; `json`: the rows as objects.' })),
    },
    { additionalProperties: false },
  ),
);

