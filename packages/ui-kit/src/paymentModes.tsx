// How the money of a sale, purchase or payment is tendered (issue 28): cash by default, any of the
// modes from the keyboard, split over several. The browser never adds the amounts: the server
// checks that they add up to the call's amount and answers its sentence when they do not.
import { useState } from 'react';
import { PAY_MODES, PAY_REF_MAX, type PaymentLine, type PayMode } from '@bahi/contracts';
import { useTranslation } from '@bahi/i18n';
import { Button, Field, SelectField } from './controls';

export interface TenderRow {
  mode: PayMode;
  /** Typed amount (split only; a single tender takes the whole amount). */
  amount: string;
  ref: string;
}

export const CASH_ONLY: TenderRow[] = [{ mode: 'cash', amount: '', ref: '' }];

/**
 * The `payments` a call sends for `total` (the typed paid/amount/refund, as text): none for plain
 * cash (the spec's body, unchanged), one line of the whole amount for a single other mode, the
 * typed lines when split.
 */
export function paymentsBody(rows: readonly TenderRow[], total: string): PaymentLine[] | undefined {
  const amount = total.trim();
  const ref = (r: TenderRow) => (r.ref.trim() ? { ref: r.ref.trim() } : {});
  if (rows.length === 1) {
    const r = rows[0]!;
    if (r.mode === 'cash' && !r.ref.trim()) return undefined;
    if (!amount || /^0*(\.0*)?$/.test(amount)) return undefined;
    return [{ mode: r.mode, amount, ...ref(r) }];
  }
  return rows.map((r) => ({ mode: r.mode, amount: r.amount.trim(), ...ref(r) }));
}

/** Mode (a select: arrow keys or the first letter), reference, and "Split" for another tender. */
export function PaymentModes(props: { rows: TenderRow[]; onChange(rows: TenderRow[]): void; testId?: string }) {
  const { t } = useTranslation('ui');
  const { rows, onChange } = props;
  const [focusLast, setFocusLast] = useState(false);
  const set = (i: number, patch: Partial<TenderRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const split = rows.length > 1;
  return (
    <fieldset className="bk-tenders" data-testid={props.testId ?? 'payment-modes'}>
      <legend>{t('payModes.legend')}</legend>
      {rows.map((r, i) => (
        <div className="bk-tender" key={i} data-testid={`tender-${i}`}>
          <SelectField
            label={split ? t('payModes.modeN', { n: i + 1 }) : t('payModes.mode')}
            name={`mode-${i}`}
            value={r.mode}
            autoFocus={focusLast && i === rows.length - 1}
            onChange={(e) => set(i, { mode: e.target.value as PayMode })}
          >
            {PAY_MODES.map((m) => (
              <option key={m} value={m}>
                {t(`payModes.${m}`)}
              </option>
            ))}
          </SelectField>
          {split ? <Field label={t('payModes.amount')} name={`tender-amount-${i}`} inputMode="decimal" value={r.amount} placeholder="0.00" onChange={(e) => set(i, { amount: e.target.value })} /> : null}
          {r.mode !== 'cash' ? <Field label={t('payModes.ref')} name={`tender-ref-${i}`} maxLength={PAY_REF_MAX} value={r.ref} onChange={(e) => set(i, { ref: e.target.value })} /> : null}
          {split ? (
            <Button type="button" variant="secondary" onClick={() => onChange(rows.filter((_, j) => j !== i))} data-testid={`tender-remove-${i}`}>
              {t('payModes.remove')}
            </Button>
          ) : null}
        </div>
      ))}
      {rows.length < 10 ? (
        <Button
          type="button"
          variant="secondary"
          data-testid="tender-split"
          onClick={() => {
            setFocusLast(true);
            onChange([...rows, { mode: rows.length === 1 && rows[0]!.mode === 'cash' ? 'upi' : 'cash', amount: '', ref: '' }]);
          }}
        >
          {t('payModes.split')}
        </Button>
      ) : null}
    </fieldset>
  );
}
