import { useEffect, useState, type FormEvent } from 'react';
import { translateServerMessage, useTranslation } from '@bahi/i18n';
import { ApiError, Button, Card, Field, FormActions, SelectField, api, useAlert } from '@bahi/ui-kit';
import { DEFAULT_PRINTER_PORT, type NetworkPrinter, type PrintersReply } from '@bahi/contracts';

type Row = { id?: number; name: string; host: string; port: string; width: '58' | '80' };
const rowOf = (p: NetworkPrinter): Row => ({ id: p.id, name: p.name, host: p.host, port: String(p.port), width: String(p.width) as Row['width'] });
/** The port as typed goes as a number when it is one; the server's sentence answers anything else. */
const bodyOf = (rows: Row[]) => ({
  printers: rows.map((r) => ({ ...(r.id ? { id: r.id } : {}), name: r.name, host: r.host.trim(), port: /^\d+$/.test(r.port.trim()) ? Number(r.port) : r.port, width: Number(r.width) })),
});

/**
 * Setting > Printers (issue 28): the company's network thermal printers. Each counter PC then picks
 * its own on the bill view; bills go to it without the browser's print dialog.
 */
export function PrintersCard() {
  const { t } = useTranslation('shell');
  const alert = useAlert();
  const [rows, setRows] = useState<Row[] | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api.get<PrintersReply>('/printers').then((r) => setRows(r.printers.map(rowOf)), () => setRows([]));
  }, []);
  if (!rows) return null;
  const set = (i: number, patch: Partial<Row>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const r = await api.put<PrintersReply>('/printers', bodyOf(rows));
      setRows(r.printers.map(rowOf));
      alert.success(t('printers.saved'));
    } catch (err) {
      alert.error(err instanceof ApiError ? translateServerMessage(err.message) : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('printers.title')}>
      <form onSubmit={(e) => void submit(e)} data-testid="printers">
        <p className="sh-gst__note">{t('printers.note')}</p>
        {rows.map((r, i) => (
          <div className="sh-printer" key={r.id ?? `new-${i}`} data-testid={`printer-${i}`}>
            <Field label={t('printers.name')} value={r.name} maxLength={40} onChange={(e) => set(i, { name: e.target.value })} />
            <Field label={t('printers.host')} value={r.host} placeholder="192.168.1.50" inputMode="decimal" onChange={(e) => set(i, { host: e.target.value })} />
            <Field label={t('printers.port')} value={r.port} inputMode="numeric" onChange={(e) => set(i, { port: e.target.value })} />
            <SelectField label={t('printers.width')} value={r.width} onChange={(e) => set(i, { width: e.target.value as Row['width'] })}>
              <option value="80">{t('printers.mm', { width: 80 })}</option>
              <option value="58">{t('printers.mm', { width: 58 })}</option>
            </SelectField>
            <Button type="button" variant="secondary" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
              {t('printers.remove')}
            </Button>
          </div>
        ))}
        <FormActions>
          <Button type="button" variant="secondary" data-testid="printer-add" onClick={() => setRows([...rows, { name: '', host: '', port: String(DEFAULT_PRINTER_PORT), width: '80' }])}>
            {t('printers.add')}
          </Button>
          <Button type="submit" busy={busy} data-testid="printers-save">
            {t('printers.save')}
          </Button>
        </FormActions>
      </form>
    </Card>
  );
}
