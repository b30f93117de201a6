import { useEffect, useRef, useState } from 'react';
import { i18n, useTranslation } from '@bahi/i18n';
import { Button, openDocument, useAlert } from '@bahi/ui-kit';
import type { BillFormat } from '@bahi/contracts';
import './print-menu.css';

const FORMATS: readonly BillFormat[] = ['a5', 'thermal-80', 'thermal-58'];
/** Rule 48: the tax invoice's copies, each its own marking; `all` prints the three in one PDF. */
const COPIES = ['original', 'duplicate', 'triplicate', 'all'] as const;
type Copy = (typeof COPIES)[number];

/** What a format prints as: a GST sale's 'a5' is the A4 tax invoice. */
export function formatLabel(format: BillFormat, gst: boolean): string {
  if (format === 'thermal-80') return i18n.t('sales:print.thermal80');
  if (format === 'thermal-58') return i18n.t('sales:print.thermal58');
  return gst ? i18n.t('sales:print.a4') : i18n.t('sales:print.a5');
}

/**
 * The bill view's Print: the button prints the company's default format (the documents service
 * applies it when no format is given); the arrow opens the other formats.
 */
export function PrintMenu({ saleId, defaultFormat, gst }: { saleId: string | number; defaultFormat: BillFormat | undefined; gst: boolean }) {
  const [open, setOpen] = useState(false);
  const alert = useAlert();
  const box = useRef<HTMLDivElement>(null);
  const current = defaultFormat ?? 'a5';
  const { t } = useTranslation('sales');

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  const print = (format?: BillFormat, copy?: Copy) => {
    setOpen(false);
    const query = copy ? (copy === 'all' ? '?copies=all' : `?copy=${copy}`) : format ? `?format=${format}` : '';
    const path = `/documents/bill/${saleId}${query}`;
    openDocument(path, { print: true }).catch(() => alert.error(t('bill.printFailed')));
  };

  return (
    <div className="sl-print" ref={box}>
      <Button data-testid="print-bill" className="sl-print__main" onClick={() => print()} title={t('print.title', { format: formatLabel(current, gst) })}>
        {t('print.print')}
      </Button>
      <Button
        data-testid="print-menu"
        className="sl-print__toggle"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={t('print.other')}
        onClick={() => setOpen((o) => !o)}
      >
        ▾
      </Button>
      {open && (
        <ul className="sl-print__menu" role="menu">
          {FORMATS.map((f) => (
            <li key={f} role="none">
              <button type="button" role="menuitem" data-testid={`print-format-${f}`} onClick={() => print(f)}>
                {formatLabel(f, gst)}
                {f === current && <span className="sl-print__default">{t('print.default')}</span>}
              </button>
            </li>
          ))}
          {gst && (
            <>
              <li role="separator" className="sl-print__sep" />
              {COPIES.map((c) => (
                <li key={c} role="none">
                  <button type="button" role="menuitem" data-testid={`print-copy-${c}`} onClick={() => print(undefined, c)}>
                    {t(`print.copy.${c}`)}
                  </button>
                </li>
              ))}
            </>
          )}
        </ul>
      )}
    </div>
  );
}
