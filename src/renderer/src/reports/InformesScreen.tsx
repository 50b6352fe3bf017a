// Informes (issue 33): how the kitchen did at a location on a day, a past day or a range, in pictures
// a manager reads at a glance, each stating its rule; and the export of the same figures. Loaded on
// first use of the screen (views/ReportsView.tsx imports it lazily): the board never pays for it.
import { DateField } from './DateField.tsx';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { csvText } from '../../../shared/csv.ts';
import type { ReportTable } from '../../../shared/kitchen-report-tables.ts';
import { REPORT_TABLE_NAMES } from '../../../shared/schemas/kitchen-report-query.ts';
import type { KitchenReport } from '../../../shared/schemas/kitchen-report.ts';
import { errorMessage } from '../api.ts';
import { useApp, useBoard, useLanguage } from '../app-context.tsx';
import type { BoardState } from '../state/board-state.ts';
import { BusyLanes } from './BusyLanes.tsx';
import { informesText, periodWords, ticketsSummary, type InformesKey, type InformesText } from './informes-text.ts';
import { PromisePanel } from './PromisePanel.tsx';
import { ReplaySection } from './ReplaySection.tsx';
import { clockOf, daysBefore, formatDay, localDay, minutes } from './report-format.ts';
import { RushChart } from './RushChart.tsx';
import { hasRush } from './rush-series.ts';
import { StationHeatmap } from './StationHeatmap.tsx';
import { steadySelector } from './steady.ts';
import './informes.css';

type Period = { from: string; to: string };

/** The width of an element that may appear later (a callback ref), followed as it changes. */
function useWidth(): [(element: HTMLDivElement | null) => void, number] {
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(800);
  useLayoutEffect(() => {
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(280, Math.floor(entry!.contentRect.width))));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return [setElement, width];
}

/**
 * The engine's local day (a test's or a replica's clock may not be this machine's), changing the
 * screen only when the day does: the engine's clock offset moves with every heartbeat, and reading
 * it drew every figure again each second (a 500-row list among them: long tasks of 300-500 ms that
 * stalled the replay's frames).
 */
function useEngineDay(zone: string): string {
  const { board } = useApp();
  const dayNow = useCallback(() => localDay(Date.now() + board.getState().clockOffset, zone), [board, zone]);
  const [day, setDay] = useState(dayNow);
  useEffect(() => {
    const follow = () => setDay(dayNow());
    follow();
    const timer = setInterval(follow, 60_000);
    const unsubscribe = board.subscribe((state, before) => state.clockOffset !== before.clockOffset && follow());
    return () => {
      clearInterval(timer);
      unsubscribe();
    };
  }, [board, dayNow]);
  return day;
}

function Figure({ id, title, rule, children }: { id: string; title: string; rule?: string; children: React.ReactNode }) {
  return (
    <section className="report-figure" data-testid={`figure-${id}`} aria-labelledby={`figure-${id}-title`}>
      <h2 id={`figure-${id}-title`}>{title}</h2>
      {rule && <p className="figure-rule">{rule}</p>}
      {children}
    </section>
  );
}

function download(name: string, type: string, body: string): void {
  const url = URL.createObjectURL(new Blob([body], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export default function InformesScreen() {
  const { api } = useApp();
  const language = useLanguage();
  const text = useMemo(() => informesText(language), [language]);
  // Kept while the board's re-reads bring the same ones (steady.ts): a new array drew the whole screen again.
  const locations = useBoard(useMemo(() => steadySelector((s: BoardState) => s.locations), []));
  const restaurant = useBoard(useMemo(() => steadySelector((s: BoardState) => s.restaurant), []));
  const stations = useBoard(useMemo(() => steadySelector((s: BoardState) => s.stations), []));
  const zone = restaurant?.time_zone ?? 'America/Santiago';
  const today = useEngineDay(zone);
  const [locationId, setLocationId] = useState<string | null>(null);
  const [chosen, setPeriod] = useState<Period | null>(null);
  const period = chosen ?? { from: today, to: today };
  const [report, setReport] = useState<KitchenReport | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [table, setTable] = useState<ReportTable>('rush');
  const [chartRef, chartWidth] = useWidth();
  const location = locationId ?? locations.find((l) => l.is_active)?.location_id ?? locations[0]?.location_id ?? null;

  useEffect(() => {
    if (!location) return;
    let current = true;
    setLoading(true);
    setError(null);
    api
      .kitchenReport({ location_id: location, from: period.from, to: period.to })
      .then((answer) => current && setReport(answer))
      .catch((e: unknown) => current && setError(errorMessage(e)))
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [api, location, period.from, period.to]);

  const quick: [InformesKey, Period][] = [
    ['today', { from: today, to: today }],
    ['yesterday', { from: daysBefore(today, 1), to: daysBefore(today, 1) }],
    ['last7', { from: daysBefore(today, 6), to: today }],
    ['last30', { from: daysBefore(today, 29), to: today }],
  ];
  // Kept between renders (the figures are memo'd: choosing an export table draws none of them again).
  const stationName = useCallback((id: string) => stations.find((s) => s.id === id)?.name ?? report?.heatmap.find((c) => c.station_id === id)?.station_name ?? id, [stations, report]);
  const recalls = useMemo(() => (report?.recalls ?? []).map((r) => ({ key: `${r.order_id}${r.at}`, number: r.number, at: r.at, note: '' })), [report]);
  const cancellations = useMemo(
    () => (report?.cancellations ?? []).map((c) => ({ key: c.order_id, number: c.number, at: c.cancelled_at, note: c.reached_kitchen ? text('reached_kitchen') : '' })),
    [report, text],
  );
  const exportAs = async (format: 'csv' | 'json') => {
    if (!location) return;
    try {
      const rows = await api.kitchenReportTable({ location_id: location, from: period.from, to: period.to, table });
      const name = `comanda-${table}-${period.from}${period.to !== period.from ? `_${period.to}` : ''}`;
      if (format === 'csv') download(`${name}.csv`, 'text/csv;charset=utf-8', csvText(rows.columns, rows.rows));
      else download(`${name}.json`, 'application/json', JSON.stringify(rows.rows.map((r) => Object.fromEntries(rows.columns.map((c, i) => [c, r[i] ?? null]))), null, 2));
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <div className="page informes-page" data-testid="reports-view">
      <header className="page-head">
        <h1>{text('title')}</h1>
        <label className="field inline">
          <span>{text('location')}</span>
          <select data-testid="reports-location" value={location ?? ''} onChange={(e) => setLocationId(e.target.value)}>
            {locations.map((l) => (
              <option key={l.location_id} value={l.location_id}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
      </header>
      <div className="report-period" role="group" aria-label={text('from')}>
        {quick.map(([key, p]) => (
          <button key={key} type="button" className={`btn ${p.from === period.from && p.to === period.to ? 'btn-primary' : ''}`} data-testid={`period-${key}`} onClick={() => setPeriod(p)}>
            {text(key)}
          </button>
        ))}
        <label className="field inline">
          <span>{text('from')}</span>
          <DateField testId="period-from" value={period.from} max={today} language={language} calendarLabel={text('calendar')} onChange={(day) => setPeriod({ from: day, to: day > period.to ? day : period.to })} />
        </label>
        <label className="field inline">
          <span>{text('to')}</span>
          <DateField testId="period-to" value={period.to} min={period.from} max={today} language={language} calendarLabel={text('calendar')} onChange={(day) => setPeriod({ from: period.from, to: day })} />
        </label>
      </div>
      {error && <div className="notice notice-error" role="alert">{text('error', { message: error })}</div>}
      {loading && <p className="muted" data-testid="reports-loading">{text('loading')}</p>}
      {report && (
        <div className="report-body" data-testid="report" data-from={report.from} data-to={report.to} aria-busy={loading}>
          <p className="figure-big" data-testid="tickets-summary">
            {report.tickets.fired === 0 ? text('empty', { period: periodWords(text, report) }) : ticketsSummary(text, report.tickets)}
          </p>
          {report.tickets.fired > 0 && <CountRule text={text} />}
          <Figure id="rush" title={text('rush_title')} rule={text('rush_rule', { slot: slotName(report.slot_minutes, text) })}>
            {hasRush(report.rush) ? (
              <div ref={chartRef} className="chart-holder">
                <RushChart report={report} text={text} width={chartWidth} language={language} />
              </div>
            ) : (
              <p className="muted" data-testid="rush-none">
                {text('rush_none', { period: periodWords(text, report) })}
              </p>
            )}
          </Figure>
          <div className="report-columns">
            <Figure id="heatmap" title={text('heatmap_title')} rule={text('heatmap_rule')}>
              <div className="scroll-x">
                <StationHeatmap report={report} text={text} language={language} />
              </div>
            </Figure>
            <Figure id="promises" title={text('promises_title')}>
              <PromisePanel report={report} text={text} language={language} stationName={stationName} />
            </Figure>
          </div>
          <Figure id="items" title={text('items_title')} rule={text('items_rule')}>
            <ItemsTable report={report} text={text} language={language} stationName={stationName} />
          </Figure>
          <Figure id="busy" title={text('busy_title')} rule={text('busy_rule')}>
            <BusyLanes report={report} text={text} language={language} />
          </Figure>
          <div className="report-columns">
            <Figure id="recalls" title={`${text('recalls_title')} (${report.recalls.length})`} rule={text('recalls_rule')}>
              <OrderList rows={recalls} text={text} zone={zone} language={language} many={report.from !== report.to} />
            </Figure>
            <Figure id="cancellations" title={`${text('cancellations_title')} (${report.cancellations.length})`} rule={text('cancellations_rule', { period: periodWords(text, report) })}>
              <OrderList rows={cancellations} text={text} zone={zone} language={language} many={report.from !== report.to} />
            </Figure>
          </div>
          <Figure id="excluded" title={text('excluded_title')} rule={text('excluded_rule')}>
            <p className="figure-big" data-testid="excluded-counts">
              {text('excluded_counts', { mass: report.excluded.bumps.mass_bump, fast: report.excluded.bumps.too_fast, open: report.excluded.bumps.left_open, tickets: report.excluded.tickets_left_open })}
            </p>
            <ExcludedTable report={report} text={text} language={language} stationName={stationName} />
          </Figure>
          <Figure id="replay" title={text('replay_title')} rule={text('replay_rule', { day: formatDay(report.to, language) })}>
            {location && <ReplaySection location={location} day={report.to} text={text} language={language} stationName={stationName} />}
          </Figure>
          <Figure id="export" title={text('export_title')} rule={text('export_rule')}>
            <div className="report-export">
              <label className="field inline">
                <span>{text('export_table')}</span>
                <select data-testid="export-table" value={table} onChange={(e) => setTable(e.target.value as ReportTable)}>
                  {REPORT_TABLE_NAMES.map((name) => (
                    <option key={name} value={name}>
                      {text(`table_${name}`)}
                    </option>
                  ))}
                </select>
              </label>
              <button type="button" className="btn" data-testid="export-csv" onClick={() => void exportAs('csv')}>
                {text('export_csv')}
              </button>
              <button type="button" className="btn" data-testid="export-json" onClick={() => void exportAs('json')}>
                {text('export_json')}
              </button>
            </div>
          </Figure>
        </div>
      )}
    </div>
  );
}

/** Which tickets the figures count and why the others do not: one tap under the summary, with a way down to the list of those left out. */
function CountRule({ text }: { text: InformesText }) {
  return (
    <details className="count-rule" data-testid="count-rule">
      <summary>{text('count_rule_open')}</summary>
      <p className="figure-rule">{text('count_rule')}</p>
      <button type="button" className="btn btn-secondary" data-testid="count-rule-list" onClick={() => document.querySelector('[data-testid="figure-excluded"]')?.scrollIntoView({ block: 'start', behavior: 'smooth' })}>
        {text('count_rule_list')}
      </button>
    </details>
  );
}

function slotName(slotMinutes: number, text: InformesText): string {
  if (slotMinutes >= 24 * 60) return text('slot_day');
  if (slotMinutes === 60) return text('slot_hour');
  return text('slot_minutes', { n: slotMinutes });
}

const ItemsTable = memo(function ItemsTable({ report, text, language, stationName }: { report: KitchenReport; text: InformesText; language: Parameters<typeof minutes>[1]; stationName: (id: string) => string }) {
  if (report.items.length === 0) return <p className="muted">{text('none_items')}</p>;
  return (
    <div className="scroll-x">
      <table className="report-table stacked" data-testid="items-table">
        <thead>
          <tr>
            <th>{text('item')}</th>
            <th>{text('station')}</th>
            <th>{text('count')}</th>
            <th>{text('excluded_count')}</th>
            <th>{text('median')}</th>
            <th>{text('p90')}</th>
            <th>{text('typed')}</th>
            <th>{text('learned')}</th>
          </tr>
        </thead>
        <tbody>
          {report.items.map((i) => (
            <tr key={`${i.station_id}${i.product_id}`}>
              <th scope="row">{i.product_name}</th>
              <td data-label={text('station')}>{stationName(i.station_id)}</td>
              <td data-label={text('count')}>{i.count}</td>
              <td data-label={text('excluded_count')}>{i.excluded}</td>
              <td data-label={text('median')}>{minutes(i.median_seconds, language)}</td>
              <td data-label={text('p90')}>{minutes(i.p90_seconds, language)}</td>
              <td data-label={text('typed')}>{minutes(i.typed_seconds, language)}</td>
              <td data-label={text('learned')}>{i.learned_seconds === null ? text('not_learned') : minutes(i.learned_seconds, language)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
});

const OrderList = memo(function OrderList({ rows, text, zone, language, many }: { rows: { key: string; number: string; at: string; note: string }[]; text: InformesText; zone: string; language: Parameters<typeof minutes>[1]; many: boolean }) {
  if (rows.length === 0) return <p className="muted">{text('none')}</p>;
  return (
    <ul className="report-list">
      {rows.slice(0, 200).map((r) => (
        <li key={r.key}>
          <strong>#{r.number}</strong> · {clockOf(r.at, zone, language, many)}
          {r.note && ` · ${r.note}`}
        </li>
      ))}
    </ul>
  );
});

const ExcludedTable = memo(function ExcludedTable({ report, text, language, stationName }: { report: KitchenReport; text: InformesText; language: Parameters<typeof minutes>[1]; stationName: (id: string) => string }) {
  const list = report.excluded.list;
  if (list.length === 0) return <p className="muted">{text('none')}</p>;
  // A ticket left open is left out whole: it has no item or station of its own, and the row says so rather than leave two cells blank.
  const product = (id: string | null) => (id === null ? text('whole_ticket') : (report.items.find((i) => i.product_id === id)?.product_name ?? id));
  return (
    <div className="scroll-x">
      <table className="report-table stacked" data-testid="excluded-table">
        <thead>
          <tr>
            <th>{text('order')}</th>
            <th>{text('item')}</th>
            <th>{text('station')}</th>
            <th>{text('reason')}</th>
            <th>{text('minutes')}</th>
            <th>{text('at')}</th>
          </tr>
        </thead>
        <tbody>
          {list.map((e) => (
            <tr key={`${e.order_id}${e.item_index ?? ''}${e.reason}`}>
              <th scope="row">#{e.number}</th>
              <td data-label={text('item')}>{product(e.product_id)}</td>
              <td data-label={text('station')}>{e.station_id === null ? '' : stationName(e.station_id)}</td>
              <td data-label={text('reason')}>{text(`reason_${e.reason}`)}</td>
              <td data-label={text('minutes')}>{minutes(e.seconds, language)}</td>
              <td data-label={text('at')}>{clockOf(e.at, report.time_zone, language, report.from !== report.to)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {report.excluded.list_truncated && <p className="muted">{text('list_truncated')}</p>}
    </div>
  );
});
