import { useNavigate } from 'react-router-dom';
import type { DebitNoteListRow } from '@bahi/contracts';
import { useTranslation } from '@bahi/i18n';
import { api, Button, ExportButtons, formatINR, NotePdfLink, PagedTable, type Column } from '@bahi/ui-kit';

type Row = DebitNoteListRow & Record<string, unknown>;

const columns = (t: (key: string) => string): Column<Row>[] => [
  {
    key: 'debit_note_no',
    header: t('debitNotes.note'),
    render: (r) => (
      <NotePdfLink kind="debit-note" id={r.id} testId={`debit-note-pdf-${r.id}`}>
        {r.debit_note_no}
      </NotePdfLink>
    ),
  },
  { key: 'Date', header: t('common.date') },
  { key: 'purchaseId', header: t('debitNotes.purchase'), render: (r) => `#${r.purchaseId}` },
  { key: 'Distributors', header: t('common.distributors') },
  { key: 'Amount', header: t('common.amount'), align: 'right', render: (r) => formatINR(r.Amount) },
  { key: 'Refund', header: t('debitNotes.refund'), align: 'right', render: (r) => (r.Refund ? formatINR(r.Refund) : '—') },
];

/** /purchaseList/debitNotes: goods sent back to distributors, newest first; a row opens its purchase, the number its PDF. */
export function DebitNotesPage() {
  const navigate = useNavigate();
  const { t } = useTranslation('purchase');
  return (
    <>
      <div className="bk-page-title">
        <h1>{t('debitNotes.title')}</h1>
        <div className="pu-title-actions">
          <ExportButtons list="debitNotes" />
          <Button variant="secondary" onClick={() => navigate('/purchaseList')}>
            {t('common.purchaseAccount')}
          </Button>
        </div>
      </div>
      <PagedTable<Row>
        title={t('debitNotes.title')}
        testId="debit-note-list"
        pageBase={0}
        columns={columns(t)}
        rowUrl="/purchase"
        load={async (pageNo, signal) => {
          const r = await api.get<{ list: Row[]; noOfPages: number }>('/getDebitNoteList', { query: { pageNo }, signal });
          return { rows: r.list.map((row) => ({ ...row, hide_url: row.purchaseId })), noOfPages: r.noOfPages };
        }}
        emptyText={t('debitNotes.empty')}
      />
    </>
  );
}
