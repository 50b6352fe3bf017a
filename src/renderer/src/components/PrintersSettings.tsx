// Ajustes → Impresoras: the restaurant's kitchen printers with their state, "Imprimir prueba",
// removing one and adding one (docs/printers.md). The engine checks every field; its refusal shows.
import { useCallback, useEffect, useState } from 'react';
import type { PrinterEntry, PrintWhen } from '../../../shared/ipc/printers.ts';
import { errorMessage } from '../api.ts';
import { useApp, useBoard, useT } from '../app-context.tsx';

const WHEN: PrintWhen[] = ['arrival', 'fallback', 'bag'];

export function PrintersSettings() {
  const t = useT();
  const { api } = useApp();
  const stations = useBoard((s) => s.stations);
  const [printers, setPrinters] = useState<PrinterEntry[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [tested, setTested] = useState<Record<string, string>>({});
  const [form, setForm] = useState({ name: '', host: '', port: '9100', width: 80 as 58 | 80, stations: [] as string[], when: ['arrival'] as PrintWhen[] });

  const attempt = async (what: string, work: () => Promise<void>) => {
    setBusy(what);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
    }
  };
  const load = useCallback(() => attempt('load', async () => setPrinters(await api.listPrinters({}))), [api]);
  useEffect(() => void load(), [load]);

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
                <td data-testid="printer-state">
                  {t(`printers.state_${p.state}`)}
                  {p.queued > 0 ? ` · ${t('print.queued', { count: p.queued })}` : ''}
                  {tested[p.id] ? ` · ${tested[p.id]}` : ''}
                </td>
                <td>
                  <button
                    type="button"
                    className="btn"
                    data-testid="printer-test"
                    disabled={busy !== null}
                    onClick={() =>
                      void attempt(p.id, async () => {
                        const result = await api.testPrinter({ printer_id: p.id });
                        setTested((s) => ({ ...s, [p.id]: result.printed ? t('printers.test_ok') : (result.error ?? '') }));
                        setPrinters((list) => list.map((x) => (x.id === p.id ? result.printer : x)));
                      })
                    }
                  >
                    {t('printers.test')}
                  </button>{' '}
                  <button type="button" className="btn" disabled={busy !== null} onClick={() => void attempt(p.id, async () => {
                    await api.removePrinter({ printer_id: p.id });
                    setPrinters(await api.listPrinters({}));
                  })}>
                    {t('printers.remove')}
                  </button>
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
            await api.addPrinter({ name: form.name, host: form.host, port: Number(form.port), width_mm: form.width, stations: form.stations, when: form.when });
            setForm((f) => ({ ...f, name: '', host: '' }));
            setPrinters(await api.listPrinters({}));
          });
        }}
      >
        <label className="field">
          <span>{t('printers.name')}</span>
          <input data-testid="printer-name" value={form.name} maxLength={60} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </label>
        <label className="field">
          <span>{t('printers.host')}</span>
          <input data-testid="printer-host" value={form.host} placeholder="192.168.1.50" onChange={(e) => setForm({ ...form, host: e.target.value })} />
        </label>
        <label className="field">
          <span>{t('printers.port')}</span>
          <input data-testid="printer-port" value={form.port} inputMode="numeric" onChange={(e) => setForm({ ...form, port: e.target.value })} />
        </label>
        <label className="field">
          <span>{t('printers.width')}</span>
          <select value={form.width} onChange={(e) => setForm({ ...form, width: Number(e.target.value) === 58 ? 58 : 80 })}>
            <option value={80}>80 mm</option>
            <option value={58}>58 mm</option>
          </select>
        </label>
        <fieldset className="field">
          <legend>{t('printers.stations')}</legend>
          {stations.map((s) => (
            <label key={s.id}>
              <input type="checkbox" checked={form.stations.includes(s.id)} onChange={() => setForm({ ...form, stations: toggle(form.stations, s.id) })} /> {s.name}
            </label>
          ))}
        </fieldset>
        <fieldset className="field">
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
        <p className="notice notice-error" role="alert">
          {t('common.error', { message: error })}
        </p>
      )}
    </div>
  );
}
