import { useState } from 'react';
import { Route, Routes, useNavigate } from 'react-router-dom';
import { api, Button, ExportButtons, formatINR, PagedTable, ReturnStatusBadge, usePageHeader } from '@bahi/ui-kit';
import BillPage from '../bill/BillPage';
import DeliveryPage from '../bill/DeliveryPage';
import { CreditNotesPage } from './CreditNotesPage';

interface SaleListReply {
  salesList: Record<string, unknown>[];
  noOfPages: number;
}

function SalesListPage() {
  usePageHeader(<span>Sells Account</span>, []);
  // The Invoice No column appears once a page holds a sale made in GST mode.
  const [invoices, setInvoices] = useState(false);
  const navigate = useNavigate();
  return (
    <PagedTable
      title="Sales List"
      testId="sales-list"
      rowUrl="/salesList/bill/show"
      // A failed load on the sales list is only logged (spec 000 §8).
      loadErrorMessage={null}
      actions={
        <>
          <ExportButtons list="sales" />
          <Button variant="secondary" onClick={() => navigate('/salesList/creditNotes')} data-testid="open-credit-notes">
            Credit Notes
          </Button>
        </>
      }
      load={async (pageNo, signal) => {
        const r = await api.get<SaleListReply>('/getSaleList', { query: { pageNo }, signal });
        setInvoices(r.salesList.some((row) => row.invoice_no));
        return { rows: r.salesList, noOfPages: r.noOfPages };
      }}
      columns={[
        { key: 'id', header: 'ID' },
        ...(invoices ? [{ key: 'invoice_no', header: 'Invoice No', render: (r: Record<string, unknown>) => (r.invoice_no as string | null) ?? '' }] : []),
        { key: 'Date', header: 'Date' },
        { key: 'Clients Name', header: 'Clients Name' },
        {
          key: 'Total Amount',
          header: 'Total Amount',
          align: 'right',
          render: (r) => formatINR(r['Total Amount'] as number),
        },
        { key: 'Paid', header: 'Paid', align: 'right', render: (r) => formatINR(r.Paid as number) },
        { key: 'status', header: 'Status', render: (r) => <ReturnStatusBadge status={r.status as string | undefined} testId={`sale-status-${String(r.id)}`} /> },
      ]}
    />
  );
}

/** Sells Account, mounted by the shell at /salesList/*. */
export default function SalesListArea() {
  return (
    <Routes>
      <Route index element={<SalesListPage />} />
      <Route path="creditNotes" element={<CreditNotesPage />} />
      <Route path="bill/:prints/:id" element={<BillPage />} />
      <Route path="bill/:prints/:id/delivery" element={<DeliveryPage />} />
      <Route
        path="*"
        element={
          <div className="bk-card sl-card">
            <h2>Page Not Found!</h2>
          </div>
        }
      />
    </Routes>
  );
}
