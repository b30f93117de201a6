import { useNavigate } from 'react-router-dom';
import type { CreditNoteListRow } from '@bahi/contracts';
import { api, Button, ExportButtons, formatINR, NotePdfLink, PagedTable, ShareButton, usePageHeader, type Column } from '@bahi/ui-kit';

type Row = CreditNoteListRow & Record<string, unknown>;

const COLUMNS: Column<Row>[] = [
  {
    key: 'credit_note_no',
    header: 'Credit Note',
    render: (r) => (
      <NotePdfLink kind="credit-note" id={r.id} testId={`credit-note-pdf-${r.id}`}>
        {r.credit_note_no}
      </NotePdfLink>
    ),
  },
  { key: 'Date', header: 'Date' },
  { key: 'saleId', header: 'Bill', render: (r) => (r.invoice_no ? `${r.invoice_no} (#${r.saleId})` : `#${r.saleId}`) },
  { key: 'Clients Name', header: 'Clients Name' },
  { key: 'Amount', header: 'Amount', align: 'right', render: (r) => formatINR(r.Amount) },
  { key: 'Refund', header: 'Refund', align: 'right', render: (r) => (r.Refund ? formatINR(r.Refund) : '—') },
  // The row opens its bill: the share button's clicks stay here.
  {
    key: 'share',
    header: '',
    render: (r) => (
      <span onClick={(e) => e.stopPropagation()}>
        <ShareButton kind="credit-note" id={r.id} label="Share" />
      </span>
    ),
  },
];

/** /salesList/creditNotes: the company's credit notes, newest first; a row opens its bill, the number its PDF. */
export function CreditNotesPage() {
  const navigate = useNavigate();
  usePageHeader(<span>Credit Notes</span>, []);
  return (
    <PagedTable<Row>
      title="Credit Notes"
      testId="credit-note-list"
      columns={COLUMNS}
      load={async (pageNo, signal) => {
        const r = await api.get<{ list: Row[]; noOfPages: number }>('/getCreditNoteList', { query: { pageNo }, signal });
        return { rows: r.list.map((row) => ({ ...row, hide_url: row.saleId })), noOfPages: r.noOfPages };
      }}
      rowUrl="/salesList/bill/show"
      actions={
        <>
          <ExportButtons list="creditNotes" />
          <Button variant="secondary" onClick={() => navigate('/salesList')}>
            Sells Account
          </Button>
        </>
      }
      emptyText="No credit notes yet. Return items from a bill to make one."
    />
  );
}
