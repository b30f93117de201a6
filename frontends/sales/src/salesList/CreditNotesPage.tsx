import { useNavigate } from 'react-router-dom';
import type { CreditNoteListRow } from '@bahi/contracts';
import { useTranslation } from '@bahi/i18n';
import { api, Button, ExportButtons, formatINR, NotePdfLink, PagedTable, ShareButton, usePageHeader, type Column } from '@bahi/ui-kit';

type Row = CreditNoteListRow & Record<string, unknown>;

const columns = (t: ReturnType<typeof useTranslation>['t']): Column<Row>[] => [
  {
    key: 'credit_note_no',
    header: t('notes.creditNote'),
    render: (r) => (
      <NotePdfLink kind="credit-note" id={r.id} testId={`credit-note-pdf-${r.id}`}>
        {r.credit_note_no}
      </NotePdfLink>
    ),
  },
  { key: 'Date', header: t('sell.date') },
  { key: 'saleId', header: t('notes.bill'), render: (r) => (r.invoice_no ? `${r.invoice_no} (#${r.saleId})` : `#${r.saleId}`) },
  { key: 'Clients Name', header: t('list.clientsName') },
  { key: 'Amount', header: t('lines.amount'), align: 'right', render: (r) => formatINR(r.Amount) },
  { key: 'Refund', header: t('notes.refund'), align: 'right', render: (r) => (r.Refund ? formatINR(r.Refund) : '—') },
  // The row opens its bill: the share button's clicks stay here.
  {
    key: 'share',
    header: '',
    render: (r) => (
      <span onClick={(e) => e.stopPropagation()}>
        <ShareButton kind="credit-note" id={r.id} label={t('notes.share')} />
      </span>
    ),
  },
];

/** /salesList/creditNotes: the company's credit notes, newest first; a row opens its bill, the number its PDF. */
export function CreditNotesPage() {
  const navigate = useNavigate();
  const { t } = useTranslation('sales');
  usePageHeader(<span>{t('list.creditNotes')}</span>, [t]);
  return (
    <PagedTable<Row>
      title={t('list.creditNotes')}
      testId="credit-note-list"
      columns={columns(t)}
      load={async (pageNo, signal) => {
        const r = await api.get<{ list: Row[]; noOfPages: number }>('/getCreditNoteList', { query: { pageNo }, signal });
        return { rows: r.list.map((row) => ({ ...row, hide_url: row.saleId })), noOfPages: r.noOfPages };
      }}
      rowUrl="/salesList/bill/show"
      actions={
        <>
          <ExportButtons list="creditNotes" />
          <Button variant="secondary" onClick={() => navigate('/salesList')}>
            {t('list.header')}
          </Button>
        </>
      }
      emptyText={t('notes.empty')}
    />
  );
}
