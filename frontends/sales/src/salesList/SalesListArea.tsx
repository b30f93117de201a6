import { useState } from 'react';
import { Route, Routes, useNavigate } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { api, Button, ExportButtons, formatINR, PagedTable, ReturnStatusBadge, usePageHeader } from '@bahi/ui-kit';
import BillPage from '../bill/BillPage';
import DeliveryPage from '../bill/DeliveryPage';
import { CreditNotesPage } from './CreditNotesPage';
import '../i18n';

interface SaleListReply {
  salesList: Record<string, unknown>[];
  noOfPages: number;
}

function SalesListPage() {
  const { t } = useTranslation('sales');
  usePageHeader(<span>{t('list.header')}</span>, [t]);
  // The Invoice No column appears once a page holds a sale made in GST mode.
  const [invoices, setInvoices] = useState(false);
  const [approvals, setApprovals] = useState(false);
  const navigate = useNavigate();
  return (
    <PagedTable
      title={t('list.title')}
      testId="sales-list"
      rowUrl="/salesList/bill/show"
      // A failed load on the sales list is only logged (spec 000 §8).
      loadErrorMessage={null}
      actions={
        <>
          <ExportButtons list="sales" />
          <Button variant="secondary" onClick={() => navigate('/salesList/creditNotes')} data-testid="open-credit-notes">
            {t('list.creditNotes')}
          </Button>
        </>
      }
      load={async (pageNo, signal) => {
        const r = await api.get<SaleListReply>('/getSaleList', { query: { pageNo }, signal });
        setInvoices(r.salesList.some((row) => row.invoice_no));
        // "Approved by" only when a sale on the page has one: the spec's columns stay as they are.
        setApprovals(r.salesList.some((row) => (row as { approved_by?: string }).approved_by));
        return { rows: r.salesList, noOfPages: r.noOfPages };
      }}
      columns={[
        { key: 'id', header: t('clients.id') },
        ...(invoices ? [{ key: 'invoice_no', header: t('bill.invoiceNo'), render: (r: Record<string, unknown>) => (r.invoice_no as string | null) ?? '' }] : []),
        { key: 'Date', header: t('sell.date') },
        { key: 'Clients Name', header: t('list.clientsName') },
        {
          key: 'Total Amount',
          header: t('list.totalAmount'),
          align: 'right',
          render: (r) => formatINR(r['Total Amount'] as number),
        },
        { key: 'Paid', header: t('sell.paid'), align: 'right', render: (r) => formatINR(r.Paid as number) },
        ...(approvals ? [{ key: 'approved_by', header: t('approvals.approvedBy'), render: (r: Record<string, unknown>) => (r.approved_by as string | undefined) ?? '' }] : []),
        { key: 'status', header: t('list.status'), render: (r) => <ReturnStatusBadge status={r.status as string | undefined} testId={`sale-status-${String(r.id)}`} /> },
      ]}
    />
  );
}

/** Sells Account, mounted by the shell at /salesList/*. */
export default function SalesListArea() {
  const { t } = useTranslation('sales');
  return (
    <Routes>
      <Route index element={<SalesListPage />} />
      <Route path="creditNotes" element={<CreditNotesPage />} />
      {/* /salesList/bill/{id}: the bill without print mode (prints defaults to show). */}
      <Route path="bill/:id" element={<BillPage />} />
      <Route path="bill/:prints/:id" element={<BillPage />} />
      <Route path="bill/:prints/:id/delivery" element={<DeliveryPage />} />
      <Route
        path="*"
        element={
          <div className="bk-card sl-card">
            <h2>{t('common.notFound')}</h2>
          </div>
        }
      />
    </Routes>
  );
}
