import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { api, ApiError, Button, useAlert } from '@bahi/ui-kit';
import type { NetworkPrinter, PrintersReply } from '@bahi/contracts';

/** The printer this counter PC prints to: chosen once, kept in this browser (issue 28). */
const PRINTER_KEY = 'bahi.counterPrinter';
export const counterPrinterId = (): number | null => {
  const n = Number(localStorage.getItem(PRINTER_KEY));
  return Number.isInteger(n) && n > 0 ? n : null;
};

/** Sends a bill to the counter's printer; resolves to the server's sentence when it failed (the sale stays saved). */
export async function printToCounter(saleId: string | number, printerId: number): Promise<string | null> {
  try {
    await api.post(`/print/bill/${saleId}`, { printer_id: printerId });
    return null;
  } catch (err) {
    return err instanceof ApiError ? err.message : String(err);
  }
}

/** The bill view's "New sale" (F2 or N): back to the empty cart, the focus in the product entry. */
export function NewSaleButton() {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const typing = e.target instanceof HTMLElement && e.target.closest('input, textarea, select, [contenteditable="true"]');
      if (e.key === 'F2' || (!typing && !e.ctrlKey && !e.altKey && !e.metaKey && (e.key === 'n' || e.key === 'N'))) {
        e.preventDefault();
        navigate('/');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate]);
  return (
    <Button data-testid="new-sale" onClick={() => navigate('/')} title={t('bill.newSaleKeys')}>
      {t('bill.newSale')} <kbd>F2</kbd>
    </Button>
  );
}

/**
 * Print straight to the counter's network thermal printer (no dialog), and the choice of that
 * printer for this PC. Nothing shows while the company has no printers.
 */
export function CounterPrinter({ saleId }: { saleId: string | number }) {
  const { t } = useTranslation('sales');
  const alert = useAlert();
  const [printers, setPrinters] = useState<NetworkPrinter[]>([]);
  const [chosen, setChosen] = useState<number | null>(counterPrinterId);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api.get<PrintersReply>('/printers').then((r) => setPrinters(r.printers ?? []), () => setPrinters([]));
  }, []);
  if (!printers.length) return null;
  const printer = printers.find((p) => p.id === chosen) ?? null;
  return (
    <span className="sl-counter-printer">
      <select
        className="bk-input"
        aria-label={t('printer.choose')}
        data-testid="counter-printer"
        value={printer?.id ?? ''}
        onChange={(e) => {
          const id = Number(e.target.value) || null;
          if (id) localStorage.setItem(PRINTER_KEY, String(id));
          else localStorage.removeItem(PRINTER_KEY);
          setChosen(id);
        }}
      >
        <option value="">{t('printer.none')}</option>
        {printers.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      {printer && (
        <Button
          variant="secondary"
          data-testid="print-to-printer"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            const failed = await printToCounter(saleId, printer.id);
            setBusy(false);
            if (failed) alert.error(failed);
            else alert.success(t('printer.sent', { name: printer.name }));
          }}
        >
          {t('printer.printTo', { name: printer.name })}
        </Button>
      )}
    </span>
  );
}
