// Informes over the API (issue 33): the kitchen report as JSON, and each of its tables as CSV or
// JSON, for a restaurant's keys (read keys included).
import { KitchenReport, KitchenReportCsv, KitchenReportQuery, KitchenReportTable, KitchenReportTableParams, KitchenReportTableQuery } from '../../../shared/schemas/kitchen-report.ts';
import { csvText } from '../../../shared/csv.ts';
import { readKitchenReport } from '../../services/reports/kitchen-report.ts';
import { readKitchenReportTable } from '../../services/reports/kitchen-report-export.ts';
import { actorOf } from '../authentication.ts';
import type { ApiServer, HttpContext } from '../http-context.ts';
import { operation } from '../openapi/operations.ts';

export function registerReportRoutes(app: ApiServer, context: HttpContext): void {
  const { engine } = context;

  app.get(
    '/reports/kitchen',
    { schema: { ...operation('getKitchenReport', { 200: { schema: KitchenReport, description: 'The report.' } }), querystring: KitchenReportQuery } },
    async (request) => await readKitchenReport(engine, actorOf(request), request.query),
  );

  app.get(
    '/reports/kitchen/:table',
    {
      schema: {
        ...operation('getKitchenReportTable', {
          200: { schema: KitchenReportTable, description: 'The table: `text/csv` by default, JSON with `format=json`.', alternatives: { 'text/csv': KitchenReportCsv } },
        }),
        params: KitchenReportTableParams,
        querystring: KitchenReportTableQuery,
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const table = await readKitchenReportTable(engine, actorOf(request), query, request.params.table);
      if (format === 'json') {
        return { table: request.params.table, columns: table.columns, data: table.rows.map((row) => Object.fromEntries(table.columns.map((c, i) => [c, row[i] ?? null]))) };
      }
      const file = `comanda-${request.params.table}-${query.from}${query.to && query.to !== query.from ? `_${query.to}` : ''}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${file}"`)
        .serializer((payload: unknown) => payload as string)
        .send(csvText(table.columns, table.rows));
    },
  );
}
