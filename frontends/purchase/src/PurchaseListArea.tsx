import './i18n';
import { Route, Routes, useNavigate } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { Button, ExportButtons, PagedTable, api, formatINR, type Column } from '@bahi/ui-kit';
import { DebitNotesPage } from './DebitNotesPage';
import { Gstr2bPage } from './Gstr2bPage';
import { NotFound } from './NotFound';
import './purchase.css';

interface Row extends Record<string, unknown> {
  id: number;
  Date: string;
  Distributors: string;
  'Total Amount': number;
  Paid: number;
}


/** /purchaseList: Purchase Account, one row per purchase, newest first; a row opens /purchase/{id}. */
export function PurchaseListPage() {
  const navigate = useNavigate();
  const { t } = useTranslation('purchase');
  const columns: Column<Row>[] = [
    { key: 'id', header: t('common.id') },
    { key: 'Date', header: t('common.date') },
    { key: 'Distributors', header: t('common.distributors') },
    { key: 'Total Amount', header: t('list.total'), align: 'right', render: (r) => formatINR(r['Total Amount']) },
    { key: 'Paid', header: t('list.paid'), align: 'right', render: (r) => formatINR(r.Paid) },
  ];
  return (
    <>
      <div className="bk-page-title">
        <h1>{t('common.purchaseAccount')}</h1>
        <div className="pu-title-actions">
          <ExportButtons list="purchases" />
          <Button variant="secondary" onClick={() => navigate('/purchaseList/debitNotes')} data-testid="open-debit-notes">
            {t('list.debitNotes')}
          </Button>
          <Button variant="secondary" onClick={() => navigate('/purchaseList/gstr2b')} data-testid="open-gstr2b">
            {t('gstr2b.open')}
          </Button>
        </div>
      </div>
      <PagedTable<Row>
        title={t('list.table')}
        testId="purchase-table"
        pageBase={0}
        columns={columns}
        rowUrl="/purchase"
        load={async (pageNo, signal) => {
          const r = await api.get<{ purchaseList: Row[]; noOfPages: number }>('/getPurchaseList', { query: { pageNo }, signal });
          return { rows: r.purchaseList, noOfPages: r.noOfPages };
        }}
        emptyText={t('list.empty')}
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
      <Route path="gstr2b" element={<Gstr2bPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
