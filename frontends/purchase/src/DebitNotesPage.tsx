import { useNavigate } from 'react-router-dom';
import type { DebitNoteListRow } from '@bahi/contracts';
import { api, Button, ExportButtons, formatINR, NotePdfLink, PagedTable, type Column } from '@bahi/ui-kit';

type Row = DebitNoteListRow & Record<string, unknown>;

const COLUMNS: Column<Row>[] = [
  {
    key: 'debit_note_no',
    header: 'Debit Note',
    render: (r) => (
      <NotePdfLink kind="debit-note" id={r.id} testId={`debit-note-pdf-${r.id}`}>
        {r.debit_note_no}
      </NotePdfLink>
    ),
  },
  { key: 'Date', header: 'Date' },
  { key: 'purchaseId', header: 'Purchase', render: (r) => `#${r.purchaseId}` },
  { key: 'Distributors', header: 'Distributors' },
  { key: 'Amount', header: 'Amount', align: 'right', render: (r) => formatINR(r.Amount) },
  { key: 'Refund', header: 'Refund', align: 'right', render: (r) => (r.Refund ? formatINR(r.Refund) : '—') },
];

/** /purchaseList/debitNotes: goods sent back to distributors, newest first; a row opens its purchase, the number its PDF. */
export function DebitNotesPage() {
  const navigate = useNavigate();
  return (
    <>
      <div className="bk-page-title">
        <h1>Debit Notes</h1>
        <div className="pu-title-actions">
          <ExportButtons list="debitNotes" />
          <Button variant="secondary" onClick={() => navigate('/purchaseList')}>
            Purchase Account
          </Button>
        </div>
      </div>
      <PagedTable<Row>
        title="Debit Notes"
        testId="debit-note-list"
        pageBase={0}
        columns={COLUMNS}
        rowUrl="/purchase"
        load={async (pageNo, signal) => {
          const r = await api.get<{ list: Row[]; noOfPages: number }>('/getDebitNoteList', { query: { pageNo }, signal });
          return { rows: r.list.map((row) => ({ ...row, hide_url: row.purchaseId })), noOfPages: r.noOfPages };
        }}
        emptyText="No debit notes yet. Return goods from a purchase to make one."
      />
    </>
  );
}
