import { useEffect, useState } from 'react';
import type { PreviewPurchaseReply } from '@bahi/contracts';
import { translateServerMessage, useTranslation } from '@bahi/i18n';
import { api, formatINR } from '@bahi/ui-kit';

/**
 * The purchase's own figures before confirming (issue 32): GET /previewPurchase at cost price,
 * each line's cost editable (the bill's cost), totals always from the server (never summed here).
 * `costs` holds only the edited lines (sl_no -> cost as typed).
 */
export function PurchasePreview({ cartNo, distributor, costs, onCosts }: { cartNo: number; distributor: string; costs: Record<number, string>; onCosts(c: Record<number, string>): void }) {
  const { t } = useTranslation('sales');
  const [p, setP] = useState<PreviewPurchaseReply | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const costQuery = Object.entries(costs)
    .filter(([, v]) => v.trim() !== '')
    .map(([k, v]) => `${k}:${v.trim()}`)
    .join(',');
  useEffect(() => {
    let live = true;
    // A short pause so each keystroke of a cost does not ask the server.
    const timer = setTimeout(() => {
      api
        .get<PreviewPurchaseReply>('/previewPurchase', { query: { cart_no: cartNo, ...(distributor ? { distributor } : {}), ...(costQuery ? { costs: costQuery } : {}) } })
        .then((r) => live && (setP(r), setErr(null)))
        .catch((e: unknown) => live && setErr(translateServerMessage(e instanceof Error ? e.message : String(e))));
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [cartNo, distributor, costQuery]);
  if (!p) return err ? <p className="sl-pp__err" role="alert">{err}</p> : null;
  return (
    <div className="sl-pp" data-testid="purchase-preview">
      <table className="sl-pp__lines">
        <thead>
          <tr>
            <th>{t('purchase.item')}</th>
            <th className="num">{t('purchase.qty')}</th>
            <th className="num">{t('purchase.cost')}</th>
            <th className="num">{t('purchase.taxable')}</th>
            <th className="num">{t('purchase.tax')}</th>
          </tr>
        </thead>
        <tbody>
          {p.lines.map((l) => (
            <tr key={l.sl_no} data-testid={`pp-line-${l.sl_no}`}>
              <td>{l.product_name}</td>
              <td className="num">{l.quantity}</td>
              <td className="num">
                <input
                  className="sl-pp__cost"
                  inputMode="decimal"
                  aria-label={t('purchase.costOf', { name: l.product_name })}
                  data-testid={`pp-cost-${l.sl_no}`}
                  value={costs[l.sl_no] ?? l.cp}
                  onChange={(e) => onCosts({ ...costs, [l.sl_no]: e.target.value })}
                />
              </td>
              <td className="num">{formatINR(l.taxable)}</td>
              <td className="num">{formatINR(l.tax)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {err ? <p className="sl-pp__err" role="alert">{err}</p> : null}
      <dl className="sl-pp__sum">
        <dt>{t('purchase.subtotal')}</dt>
        <dd data-testid="pp-subtotal">{formatINR(p.subtotal)}</dd>
        <dt>{t('purchase.tax')}</dt>
        <dd data-testid="pp-tax">{formatINR(p.tax)}</dd>
        {p.shipping !== '0.00' && (
          <>
            <dt>{t('purchase.shipping')}</dt>
            <dd>{formatINR(p.shipping)}</dd>
          </>
        )}
        {p.discount !== '0.00' && (
          <>
            <dt>{t('purchase.discount')}</dt>
            <dd>−{formatINR(p.discount)}</dd>
          </>
        )}
        <dt>{t('purchase.total')}</dt>
        <dd data-testid="pp-total">
          <strong>{formatINR(p.total)}</strong>
        </dd>
      </dl>
    </div>
  );
}
