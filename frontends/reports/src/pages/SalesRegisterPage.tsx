import { useState } from 'react';
import { useTranslation } from '@bahi/i18n';
import { Button, SuggestInput, api, useAlert } from '@bahi/ui-kit';
import { Chart } from '../charts/Chart';
import { Loaded, RangeFilter, ReportShell, ReportTable, inr, pageOf, useReport, type Col } from './ReportFrame';
import { PAGE_SIZE, dmy, sumBy } from './query';
import type { SalesRegister, SalesRow } from './types';

const KEYS = ['from', 'to', 'clientId'] as const;

interface Customer {
  client_id: number;
  name: string;
  mobile_no?: string;
}
const label = (c: Customer) => `${c.client_id} : ${c.name}${c.mobile_no ? ` ${c.mobile_no}` : ''}`;

/** /reports/sales-register?from&to&clientId: per bill, returns and cancellations netted. */
export function SalesRegisterPage() {
  const { t } = useTranslation('reports');
  const alert = useAlert();
  const r = useReport<SalesRegister>('sales-register', KEYS);
  const [customerName, setCustomerName] = useState('');
  const d = r.data;
  const cols: Col<SalesRow>[] = [
    { key: 'date', label: t('pages.cols.date'), cell: (x) => dmy(x.date) },
    { key: 'invoice', label: t('pages.cols.invoice'), cell: (x) => x.invoice_no ?? `#${x.saleId}` },
    { key: 'customer', label: t('pages.cols.customer'), cell: (x) => x.customer || '—' },
    { key: 'amount', label: t('pages.cols.amount'), num: true, cell: (x) => inr(x.amount), total: d && inr(d.totals.amount) },
    { key: 'returned', label: t('pages.cols.returned'), num: true, cell: (x) => inr(x.returned), total: d && inr(d.totals.returned) },
    { key: 'cancelled', label: t('pages.cols.cancelled'), num: true, cell: (x) => (x.cancelled ? <span className="rp-tag rp-tag--bad">{t('pages.cancelledTag')}</span> : ''), total: d && inr(d.totals.cancelled) },
    { key: 'net', label: t('pages.cols.net'), num: true, cell: (x) => inr(x.net), total: d && inr(d.totals.net) },
    { key: 'paid', label: t('pages.cols.paid'), num: true, cell: (x) => inr(x.paid), total: d && inr(d.totals.paid) },
  ];
  return (
    <ReportShell
      name="sales-register"
      query={r.query}
      filters={
        <>
          <RangeFilter from={r.query.from ?? d?.from ?? ''} to={r.query.to ?? d?.to ?? ''} set={r.set} />
          <div className="rp-party">
            <SuggestInput<Customer>
              // A new choice, Back or a shared link remounts it with the URL's customer.
              key={r.query.clientId ?? ''}
              label={t('pages.filters.customer')}
              placeholder={t('pages.filters.customerPlaceholder')}
              testId="filter-customer"
              minChars={3}
              delay={200}
              initialText={r.query.clientId ? customerName || (d?.clientId === Number(r.query.clientId) ? (d.rows[0]?.customer ?? '') : '') : ''}
              suggest={async (text, signal) => {
                const rows = await api.get<Customer[]>('/getCustomerList/', { query: { text }, signal });
                return (Array.isArray(rows) ? rows : []).map((c) => ({ id: c.client_id, label: label(c), item: c }));
              }}
              isChoice={(s) => /^\d+\s*:/.test(s)}
              match={(text, list) => list.find((s) => s.label === text.trim()) ?? list.find((s) => text.trim().startsWith(`${s.id} :`))}
              onChoose={(s) => {
                setCustomerName(s.label);
                r.set({ clientId: String(s.id) });
              }}
              onInvalid={() => alert.error(t('pages.filters.customerInvalid'))}
            />
            {r.query.clientId && (
              <Button variant="ghost" onClick={() => r.set({ clientId: null })} data-testid="clear-customer">
                {t('pages.filters.allCustomers')}
              </Button>
            )}
          </div>
        </>
      }
    >
      <Loaded state={r}>
        {(data) => {
          // Net sales by day of the bills shown (every bill of the range when they fit one page).
          const byDay = sumBy(data.rows, (x) => x.date, (x) => x.net);
          return (
            <>
              {byDay.keys.length > 1 && (
                <Chart
                  kind="bar"
                  title={data.totals.count > PAGE_SIZE ? t('pages.charts.salesByDayPage') : t('pages.charts.salesByDay')}
                  showTitle
                  categoryLabel={t('pages.cols.date')}
                  categories={byDay.keys.map(dmy)}
                  series={[{ name: t('pages.cols.net'), data: byDay.sums }]}
                  height={220}
                  testId="sales-chart"
                />
              )}
              <ReportTable
                testId="sales-register-table"
                cols={cols}
                rows={data.rows}
                totalLabel={t('pages.total.bills', { count: data.totals.count })}
                count={data.totals.count}
                page={pageOf(r.query)}
                onPage={(p) => r.set({ page: String(p) })}
              />
            </>
          );
        }}
      </Loaded>
    </ReportShell>
  );
}
