// Ajustes → Impresoras: the restaurant's kitchen printers with their state, "Imprimir prueba",
// removing one and adding one (docs/printers.md). The engine checks every field; its refusal names
// the field (in Spanish, marked in the form) and what was typed stays. The states follow the board's
// print status (the live feed's heartbeats), so a printer that stops answering shows without a reload.
import { useCallback, useEffect, useState } from 'react';
import type { PrinterEntry, PrintWhen } from '../../../shared/screen-contract/printers.ts';
import { errorMessage, ScreenCallError } from '../api.ts';
import { useApp, useBoard, useT } from '../app-context.tsx';
import { refusedPrinterField, typedPort, type PrinterField } from './printer-form-error.ts';

const WHEN: PrintWhen[] = ['arrival', 'fallback', 'bag'];

export function PrintersSettings() {
  const t = useT();
  const { api } = useApp();
  const stations = useBoard((s) => s.stations);
  const [printers, setPrinters] = useState<PrinterEntry[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [badField, setBadField] = useState<PrinterField | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  // What the last "Imprimir prueba" said, shown while the printer's state is still the one it left.
  const [tested, setTested] = useState<Record<string, { state: string; text: string }>>({});
  const stateOf = (p: PrinterEntry) => `${p.state}|${p.state_at}|${p.state_detail}`;
  const [form, setForm] = useState({ name: '', host: '', port: '9100', width: 80 as 58 | 80, stations: [] as string[], when: ['arrival'] as PrintWhen[] });

  const attempt = async (what: string, work: () => Promise<void>) => {
    setBusy(what);
    setError(null);
    setBadField(null);
    try {
      await work();
    } catch (failure) {
      const field = what === 'add' ? refusedPrinterField(failure instanceof ScreenCallError ? failure.code : null, errorMessage(failure)) : null;
      setBadField(field);
      setError(field ? refusal(field, errorMessage(failure)) : t('common.error', { message: errorMessage(failure) }));
    } finally {
      setBusy(null);
    }
  };
  /** The refused field in the form's words, with what was typed where that is what is wrong. */
  const refusal = (field: PrinterField, detail: string): string => {
    if (field === 'host') return t('printers.invalid_host', { value: form.host });
    if (field === 'port') return t('printers.invalid_port', { value: form.port });
    return t('printers.invalid_field', { field: t(`printers.${field}`), detail: detail.replace(/^printers:add: /, '') });
  };
  const load = useCallback(() => attempt('load', async () => setPrinters(await api.listPrinters({}))), [api]);
  useEffect(() => void load(), [load]);
  // The board hears every printer with jobs waiting or in trouble on each heartbeat: when that
  // changes, the list (and so each state) is read again.
  const printing = useBoard((s) => s.printing.map((p) => `${p.printer_id}:${p.state}:${p.queued}:${p.set_aside}`).join(','));
  useEffect(() => {
    void api.listPrinters({}).then(setPrinters, () => {});
  }, [api, printing]);
  const invalid = (field: PrinterField) => (badField === field ? { 'aria-invalid': true as const } : {});

  const toggle = <T,>(list: T[], item: T) => (list.includes(item) ? list.filter((x) => x !== item) : [...list, item]);
  return (
    <div className="printers-settings" data-testid="printers-settings">
      {printers.length === 0 ? (
        <p className="muted">{t('printers.none')}</p>
      ) : (
        <table className="keys-table">
          <thead>
            <tr>
              <th>{t('printers.name')}</th>
              <th>{t('printers.address')}</th>
              <th>{t('printers.state')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {printers.map((p) => (
              <tr key={p.id} data-printer-id={p.id} data-state={p.state}>
                <td>
                  {p.name} · {p.width_mm} mm · {p.when.map((w) => t(`printers.when_${w}`)).join(', ')}
                </td>
                <td>
                  {p.host}:{p.port}
                </td>
                <td data-testid="printer-state" title={p.state_detail ?? undefined}>
                  {t(`printers.state_${p.state}`)}
                  {p.queued > 0 ? ` · ${t('print.queued', { count: p.queued })}` : ''}
                  {busy === `test:${p.id}`
                    ? ` · ${t('printers.testing')}`
                    : tested[p.id] && tested[p.id]!.state === stateOf(p)
                      ? ` · ${tested[p.id]!.text}`
                      : ''}
                </td>
                <td>
                  <div className="printer-actions">
                    <button
                      type="button"
                      className="btn"
                      data-testid="printer-test"
                      disabled={busy !== null}
                      onClick={() =>
                        void attempt(`test:${p.id}`, async () => {
                          const result = await api.testPrinter({ printer_id: p.id });
                          // A failure is said by what the cook can check; the socket's own words stay in the tooltip.
                          const text = result.printed
                            ? t('printers.test_ok')
                            : result.printer.state === 'paper_out'
                              ? t('printers.test_paper_out')
                              : result.failure === 'not_a_printer'
                                ? t('printers.test_not_a_printer', { address: `${result.printer.host}:${result.printer.port}`, reply: result.reply })
                                : t(result.silent ? 'printers.test_silent' : 'printers.test_unreachable', { address: `${result.printer.host}:${result.printer.port}` });
                          setTested((s) => ({ ...s, [p.id]: { state: stateOf(result.printer), text } }));
                          setPrinters((list) => list.map((x) => (x.id === p.id ? result.printer : x)));
                        })
                      }
                    >
                      {t('printers.test')}
                    </button>
                    <button type="button" className="btn" disabled={busy !== null} onClick={() => void attempt(p.id, async () => {
                      await api.removePrinter({ printer_id: p.id });
                      setPrinters(await api.listPrinters({}));
                    })}>
                      {t('printers.remove')}
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form
        className="key-form"
        onSubmit={(e) => {
          e.preventDefault();
          void attempt('add', async () => {
            const port = typedPort(form.port);
            if (port === null) throw new ScreenCallError({ code: 'invalid_request', message: `port: not a number: ${JSON.stringify(form.port)}` });
            await api.addPrinter({ name: form.name, host: form.host, port, width_mm: form.width, stations: form.stations, when: form.when });
            setForm((f) => ({ ...f, name: '', host: '' }));
            setPrinters(await api.listPrinters({}));
          });
        }}
      >
        <label className="field">
          <span>{t('printers.name')}</span>
          <input data-testid="printer-name" {...invalid('name')} value={form.name} maxLength={60} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </label>
        <label className="field">
          <span>{t('printers.host')}</span>
          <input data-testid="printer-host" {...invalid('host')} value={form.host} placeholder="192.168.1.50" onChange={(e) => setForm({ ...form, host: e.target.value })} />
        </label>
        <label className="field">
          <span>{t('printers.port')}</span>
          <input data-testid="printer-port" {...invalid('port')} value={form.port} inputMode="numeric" onChange={(e) => setForm({ ...form, port: e.target.value })} />
        </label>
        <label className="field">
          <span>{t('printers.width')}</span>
          <select data-testid="printer-width" {...invalid('width')} value={form.width} onChange={(e) => setForm({ ...form, width: Number(e.target.value) === 58 ? 58 : 80 })}>
            <option value={80}>80 mm</option>
            <option value={58}>58 mm</option>
          </select>
        </label>
        <fieldset className="field printer-choices">
          <legend>{t('printers.stations')}</legend>
          {stations.map((s) => (
            <label key={s.id}>
              <input type="checkbox" checked={form.stations.includes(s.id)} onChange={() => setForm({ ...form, stations: toggle(form.stations, s.id) })} /> {s.name}
            </label>
          ))}
        </fieldset>
        <fieldset className="field printer-choices">
          <legend>{t('printers.when')}</legend>
          {WHEN.map((w) => (
            <label key={w}>
              <input type="checkbox" checked={form.when.includes(w)} onChange={() => setForm({ ...form, when: toggle(form.when, w) })} /> {t(`printers.when_${w}`)}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="btn btn-primary" data-testid="printer-add" disabled={busy !== null}>
          {t('printers.add')}
        </button>
      </form>
      {error && (
        <p className="notice notice-error" role="alert" data-testid="printers-error">
          {error}
        </p>
      )}
    </div>
  );
}
