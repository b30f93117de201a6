import { useTranslation } from '@bahi/i18n';
import { Loaded, RangeFilter, ReportShell, ReportTable, inr, useReport, type Col } from './ReportFrame';
import { monthName } from './ProfitPage';
import type { Pnl, PnlFigures } from './types';

const KEYS = ['from', 'to'] as const;
type Row = PnlFigures & { month: string };

/** /reports/pnl?from&to: by month, sales (before tax and shipping, net of discounts) less their cost, less expenses; the server's figures. */
export function PnlPage() {
  const { t } = useTranslation('reports');
  const r = useReport<Pnl>('pnl', KEYS);
  const d = r.data;
  const money = (k: keyof PnlFigures, label: string): Col<Row> => ({
    key: k,
    label,
    num: true,
    cell: (x) => <span className={x[k].startsWith('-') ? 'rp-neg' : undefined}>{inr(x[k])}</span>,
    total: d && <span className={d.totals[k].startsWith('-') ? 'rp-neg' : undefined}>{inr(d.totals[k])}</span>,
  });
  const cols: Col<Row>[] = [
    { key: 'month', label: t('pages.cols.month'), cell: (x) => monthName(x.month) },
    money('sales', t('pages.cols.sales')),
    money('cost', t('pages.cols.cost')),
    money('gross_profit', t('pages.cols.grossProfit')),
    money('expenses', t('pages.cols.expenses')),
    money('net_profit', t('pages.cols.netProfit')),
  ];
  return (
    <ReportShell name="pnl" query={r.query} filters={<RangeFilter from={r.query.from ?? d?.from ?? ''} to={r.query.to ?? d?.to ?? ''} set={r.set} />}>
      <Loaded state={r}>
        {(data) => (
          <>
            {data.totals.valueWithoutCost !== '0.00' && (
              <p className="bk-muted rp-note" data-testid="pnl-costless">
                {t('pages.profitCostless', { amount: inr(data.totals.valueWithoutCost) })}
              </p>
            )}
            <ReportTable testId="pnl-table" cols={cols} rows={data.rows} totalLabel={t('pages.total.plain')} count={null} page={0} />
          </>
        )}
      </Loaded>
    </ReportShell>
  );
}
