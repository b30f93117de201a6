import type { ReactNode } from 'react';
import type { Gstr3bReply } from '@bahi/contracts';
import { Card, formatINR } from '@bahi/ui-kit';
import { useTranslation } from '@bahi/i18n';
import { posLabel } from '../rules';

const inr = (v: number | undefined) => formatINR(v ?? 0);

/**
 * The GSTR-3B summary: 3.1 as the month's GSTR-1 reports it (the portal locks it to GSTR-1),
 * the input tax credit labelled as Bahi's estimate from purchases (the portal fills 4A from
 * GSTR-2B), the cash payable, and the excess when credit notes exceed the month's supplies.
 */
export function Gstr3bCard({ data, download }: { data: Gstr3bReply; download: ReactNode }) {
  const { t } = useTranslation('reports');
  type Row = { key: string; label: string; txval?: number; iamt?: number; camt?: number; samt?: number; csamt?: number; strong?: boolean };
  const rows: Row[] = [
    { key: 'outward', label: t('gst.rows3b.outward'), ...data.outward },
    { key: 'nil', label: t('gst.rows3b.nil'), txval: data.nil_exempt.txval },
    { key: 'nongst', label: t('gst.rows3b.nonGst'), txval: data.non_gst?.txval ?? 0 },
    { key: 'itc', label: t('gst.rows3b.itc'), ...data.itc },
    { key: 'payable', label: t('gst.rows3b.payable'), ...data.net_payable, strong: true },
    { key: 'carried', label: t('gst.rows3b.carried'), ...data.itc_carried },
  ];
  const cell = (v: number | undefined) => (v === undefined ? '' : inr(v));
  const ex = data.excess;
  const hasExcess = !!ex && (ex.txval > 0 || ex.iamt > 0 || ex.camt > 0 || ex.samt > 0);
  return (
    <Card title={t('gst.summary3b')} actions={download}>
      <div className="bk-table-wrap">
        <table className="bk-table rp-table" data-testid="gst-3b">
          <thead>
            <tr>
              <th scope="col">{t('gst.cols.head')}</th>
              <th scope="col" className="rp-num">
                {t('gst.cols.taxable')}
              </th>
              <th scope="col" className="rp-num">
                {t('gst.cols.igst')}
              </th>
              <th scope="col" className="rp-num">
                {t('gst.cols.cgst')}
              </th>
              <th scope="col" className="rp-num">
                {t('gst.cols.sgst')}
              </th>
              <th scope="col" className="rp-num">
                {t('gst.cols.cess')}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} className={r.strong ? 'rp-strong' : undefined} data-row={r.key}>
                <td>{r.label}</td>
                <td className="rp-num bk-money">{cell(r.txval)}</td>
                <td className="rp-num bk-money">{cell(r.iamt)}</td>
                <td className="rp-num bk-money">{cell(r.camt)}</td>
                <td className="rp-num bk-money">{cell(r.samt)}</td>
                <td className="rp-num bk-money">{cell(r.csamt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="bk-muted rp-note" data-testid="gst-3b-itc-note">
        {t('gst.itcEstimate')}
      </p>
      {hasExcess && (
        <p className="rp-note" role="status" data-testid="gst-3b-excess">
          {t('gst.excess', { txval: inr(ex.txval), iamt: inr(ex.iamt), camt: inr(ex.camt), samt: inr(ex.samt) })}
        </p>
      )}
      {data.inter_state_unreg.length > 0 && (
        <p className="bk-muted rp-note">
          {t('gst.interUnreg')}{' '}
          {data.inter_state_unreg.map((x) => t('gst.interUnregItem', { pos: posLabel(x.pos), txval: inr(x.txval), iamt: inr(x.iamt) })).join('; ')}
        </p>
      )}
    </Card>
  );
}
