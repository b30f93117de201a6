import { Route, Routes, useNavigate } from 'react-router-dom';
import { Button, ExportButtons, PagedTable, api, formatINR, type Column } from '@bahi/ui-kit';
import { DebitNotesPage } from './DebitNotesPage';
import { NotFound } from './NotFound';
import './purchase.css';

interface Row extends Record<string, unknown> {
  id: number;
  Date: string;
  Distributors: string;
  'Total Amount': number;
  Paid: number;
}

const COLUMNS: Column<Row>[] = [
  { key: 'id', header: 'ID' },
  { key: 'Date', header: 'Date' },
  { key: 'Distributors', header: 'Distributors' },
  { key: 'Total Amount', header: 'Total Amount', align: 'right', render: (r) => formatINR(r['Total Amount']) },
  { key: 'Paid', header: 'Paid', align: 'right', render: (r) => formatINR(r.Paid) },
];

/** /purchaseList: Purchase Account, one row per purchase, newest first; a row opens /purchase/{id}. */
export function PurchaseListPage() {
  const navigate = useNavigate();
  return (
    <>
      <div className="bk-page-title">
        <h1>Purchase Account</h1>
        <div className="pu-title-actions">
          <ExportButtons list="purchases" />
          <Button variant="secondary" onClick={() => navigate('/purchaseList/debitNotes')} data-testid="open-debit-notes">
            Debit Notes
          </Button>
        </div>
      </div>
      <PagedTable<Row>
        title="Purchase List"
        testId="purchase-table"
        pageBase={0}
        columns={COLUMNS}
        rowUrl="/purchase"
        load={async (pageNo, signal) => {
          const r = await api.get<{ purchaseList: Row[]; noOfPages: number }>('/getPurchaseList', { query: { pageNo }, signal });
          return { rows: r.purchaseList, noOfPages: r.noOfPages };
        }}
        emptyText="No purchases yet. Fill the cart and press Proceed to purchase."
      />
    </>
  );
}

/** Mounted by the shell at /purchaseList/*. */
export default function PurchaseListArea() {
  return (
    <Routes>
      <Route index element={<PurchaseListPage />} />
      <Route path="debitNotes" element={<DebitNotesPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
