import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { formatINR } from '@bahi/ui-kit';
import type { CounterGstSummary } from '@bahi/contracts';
import { fmt1, fmt2, isDecimal, type CartLine } from './lines';
import { decimalAbove, DiscountRefused } from './discounts';

/**
 * A number box whose edit is held locally and saved on blur only when it changed (spec 000 §4).
 * `check` refuses a value as it is typed (its sentence shows beside the box and nothing is sent);
 * a refusal from the server (DiscountRefused) shows the same way.
 */
function LineInput({ value, label, onSave, check, errorId }: { value: number; label: string; onSave(v: string): Promise<void>; check?(v: string): string | null; errorId?: string }) {
  const [text, setText] = useState(String(value));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setText(String(value)), [value]);
  const commit = async () => {
    const t = text.trim();
    if (t === String(value)) return setError(null);
    if (!isDecimal(t)) return setText(String(value));
    const refused = check?.(t);
    if (refused) return setText(String(value));
    await onSave(t).then(
      () => setError(null),
      (err: unknown) => {
        setText(String(value));
        setError(err instanceof DiscountRefused ? err.message : null);
      },
    );
  };
  return (
    <>
      <input
        className={`bk-input sl-num${error ? ' sl-num--refused' : ''}`}
        inputMode="decimal"
        aria-label={label}
        aria-invalid={error ? true : undefined}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setError(check && isDecimal(e.target.value) ? check(e.target.value.trim()) : null);
        }}
        onBlur={() => void commit()}
        onKeyDown={(e) => {
          if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
          if (e.key === 'Escape') {
            setText(String(value));
            setError(null);
          }
        }}
      />
      {error && (
        <span className="sl-field-error" role="alert" data-testid={errorId}>
          {error}
        </span>
      )}
    </>
  );
}

function TrashIcon() {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6" />
    </svg>
  );
}

/** The lines of a cart or an estimate; in GST mode (`gst` set) each line also shows its GST rate and taxable value. */
export function LinesTable({
  lines,
  gst,
  onQuantity,
  onDiscount,
  onRemove,
}: {
  lines: CartLine[];
  gst?: CounterGstSummary | null;
  onQuantity(l: CartLine, v: string): Promise<void>;
  onDiscount(l: CartLine, v: string): Promise<void>;
  onRemove(l: CartLine): void;
}) {
  const { t } = useTranslation('sales');
  if (!lines.length) return <p className="sl-empty">{t('lines.empty')}</p>;
  // A bill of supply (composition) charges no tax: its lines show no rate.
  const taxed = gst?.tax_mode === 'gst' ? gst : null;
  const gstOf = new Map(taxed?.lines.map((g) => [g.sl_no, g]));
  return (
    <table className="sl-lines" data-testid="cart-lines">
      <thead>
        <tr>
          <th>#</th>
          <th>{t('lines.product')}</th>
          <th className="r">{t('lines.rate')}</th>
          <th className="r">{t('lines.stock')}</th>
          <th className="r">{t('lines.qty')}</th>
          <th className="r">{t('lines.disc')}</th>
          <th className="r">{taxed ? t('lines.amountGst') : t('lines.amount')}</th>
          <th aria-label={t('lines.remove')} />
        </tr>
      </thead>
      <tbody>
        {lines.map((l, i) => (
          <tr key={l.sl_no} data-testid={`line-${l.product_id}`}>
            <td>{i + 1}</td>
            <td className="sl-lines__name">
              <Link to={`/productItem/${l.product_id}`}>{l.product_name}</Link>
              <span className="sl-muted"> #{l.product_id}</span>
            </td>
            <td className="r nowrap" data-label={t('lines.rate')}>
              {formatINR(l.mrp)}
              <span className="sl-muted">
                /{l.per_peice_quantity !== 1 ? `${l.per_peice_quantity} ` : ''}
                {l.unit}
              </span>
            </td>
            <td className={`r nowrap ${l.stock < l.quantity * l.per_peice_quantity ? 'sl-warn' : ''}`} data-label={t('lines.stock')}>
              {l.stock}
            </td>
            <td className="r" data-label={t('lines.qty')}>
              <LineInput value={l.quantity} label={t('lines.quantityOf', { name: l.product_name })} onSave={(v) => onQuantity(l, v)} errorId={`quantity-error-${l.product_id}`} />
            </td>
            <td className="r" data-label={t('lines.disc')}>
              <LineInput
                value={l.discount}
                label={t('lines.discountOn', { name: l.product_name })}
                onSave={(v) => onDiscount(l, v)}
                // Never above the rate: refused as typed (the server says the same).
                check={(v) => (decimalAbove(v, String(l.mrp)) ? t('discount.aboveRate', { name: l.product_name, rate: `Rs ${fmt2(l.mrp)}` }) : null)}
                errorId={`discount-error-${l.product_id}`}
              />
            </td>
            <td className="r bk-money nowrap" data-label={taxed ? t('lines.amountGst') : t('lines.amount')}>
              <span data-testid="line-amount">{fmt1(l.amount)}</span>
              {taxed && (
                // The line's GST rate on its taxable value (its share of shipping less discount included).
                <span className="sl-muted sl-lines__sub" data-testid="line-gst" title={t('lines.gstTitle')}>
                  {gstOf.has(l.sl_no) ? t('lines.gstOn', { rate: gstOf.get(l.sl_no)!.gst_rate, value: fmt2(gstOf.get(l.sl_no)!.taxable_value) }) : ''}
                </span>
              )}
            </td>
            <td>
              <button
                type="button"
                className="sl-remove"
                aria-label={t('lines.removeName', { name: l.product_name })}
                title={t('lines.remove')}
                onClick={() => onRemove(l)}
              >
                <TrashIcon />
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
