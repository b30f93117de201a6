import { useEffect, useState } from 'react';
import { useTranslation } from '@bahi/i18n';
import { api } from '@bahi/ui-kit';
import type { GetAllDistributorsListReply } from '@bahi/contracts';
import { Loaded, RangeFilter, ReportShell, ReportTable, inr, pageOf, useReport, type Col } from './ReportFrame';
import { dmy } from './query';
import type { PurchaseRegister, PurchaseRow } from './types';

const KEYS = ['from', 'to', 'distributorId'] as const;
type Distributor = GetAllDistributorsListReply['allDistributorsList'][number];

/** /reports/purchase-register?from&to&distributorId: per purchase, returns netted. */
export function PurchaseRegisterPage() {
  const { t } = useTranslation('reports');
  const r = useReport<PurchaseRegister>('purchase-register', KEYS);
  // A company has few distributors: the whole list once.
  const [distributors, setDistributors] = useState<Distributor[]>([]);
  useEffect(() => {
    api.get<GetAllDistributorsListReply>('/getAllDistributorsList').then(
      (x) => setDistributors(x.allDistributorsList ?? []),
      () => setDistributors([]),
    );
  }, []);
  const d = r.data;
  const cols: Col<PurchaseRow>[] = [
    { key: 'date', label: t('pages.cols.date'), cell: (x) => dmy(x.date) },
    { key: 'bill', label: t('pages.cols.billNo'), cell: (x) => x.bill_no || `#${x.purchaseId}` },
    { key: 'distributor', label: t('pages.cols.distributor'), cell: (x) => x.distributor || '—' },
    { key: 'amount', label: t('pages.cols.amount'), num: true, cell: (x) => inr(x.amount), total: d && inr(d.totals.amount) },
    { key: 'returned', label: t('pages.cols.returned'), num: true, cell: (x) => inr(x.returned), total: d && inr(d.totals.returned) },
    { key: 'net', label: t('pages.cols.net'), num: true, cell: (x) => inr(x.net), total: d && inr(d.totals.net) },
    { key: 'paid', label: t('pages.cols.paid'), num: true, cell: (x) => inr(x.paid), total: d && inr(d.totals.paid) },
  ];
  return (
    <ReportShell
      name="purchase-register"
      query={r.query}
      filters={
        <>
          <RangeFilter from={r.query.from ?? d?.from ?? ''} to={r.query.to ?? d?.to ?? ''} set={r.set} />
          <label className="rp-month">
            <span>{t('pages.filters.distributor')}</span>
            <select name="distributorId" value={r.query.distributorId ?? ''} onChange={(e) => r.set({ distributorId: e.target.value })} data-testid="filter-distributor">
              <option value="">{t('pages.filters.allDistributors')}</option>
              {distributors.map((x) => (
                <option key={x.distributor_id} value={String(x.distributor_id)}>
                  {x.name}
                </option>
              ))}
            </select>
          </label>
        </>
      }
    >
      <Loaded state={r}>
        {(data) => (
          <ReportTable
            testId="purchase-register-table"
            cols={cols}
            rows={data.rows}
            totalLabel={t('pages.total.purchases', { count: data.totals.count })}
            count={data.totals.count}
            page={pageOf(r.query)}
            onPage={(p) => r.set({ page: String(p) })}
          />
        )}
      </Loaded>
    </ReportShell>
  );
}
