import { useState } from 'react';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router-dom';
import type { DistributorListRow, HistoryRow } from '@bahi/contracts';
import { Button, Card, ExportButtons, ImportWizard, Modal, NotePdfLink, PagedTable, PartyHistoryTable, Spinner, StatCards, api, formatINR, useAlert, usePartyDetails, type Column } from '@bahi/ui-kit';
import type { Distributor } from './distributor';
import { DistributorForm } from './DistributorForm';
import { NotFound } from './NotFound';
import './purchase.css';

type ListRow = DistributorListRow & Record<string, unknown>;
const LIST_COLUMNS: Column<ListRow>[] = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'Name' },
  { key: 'city_or_district', header: 'City' },
  { key: 'due', header: 'Due', align: 'right', render: (r) => formatINR(r.due) },
];

/** /distributor: the distributors with what we owe each. */
export function DistributorListPage() {
  const navigate = useNavigate();
  const alert = useAlert();
  return (
    <>
      <div className="bk-page-title">
        <h1>Distributors</h1>
        <div className="pu-title-actions">
          <ExportButtons list="distributors" onError={(m) => alert.error(m)} />
          <Button variant="secondary" onClick={() => navigate('/distributor/import')}>
            Import
          </Button>
          <Button onClick={() => navigate('/distributor/add')}>Add Distributor</Button>
        </div>
      </div>
      <PagedTable<ListRow>
        title="Distributor List"
        testId="distributor-table"
        pageBase={0}
        columns={LIST_COLUMNS}
        rowUrl="/distributor/transaction"
        load={async (pageNo, signal) => {
          const r = await api.get<{ distributorsList: ListRow[]; noOfPages: number }>('/getDistributorsList', { query: { pageNo }, signal });
          return { rows: r.distributorsList, noOfPages: r.noOfPages };
        }}
        emptyText="No distributors yet. Add one with Add Distributor."
      />
    </>
  );
}

/** /distributor/import: distributors (with opening balances) from a CSV or XLSX sheet. */
function DistributorImportPage() {
  const navigate = useNavigate();
  return <ImportWizard kind="distributors" title="Import Distributors" doneLabel="See the distributors" onDone={() => navigate('/distributor')} />;
}

/** /distributor/add */
export function AddDistributorPage() {
  const navigate = useNavigate();
  return (
    <>
      <div className="bk-page-title">
        <h1>Add Distributor</h1>
      </div>
      <Card title="Distributor">
        <DistributorForm testId="add-distributor-form" onSaved={(d) => navigate(`/distributor/transaction/${d.distributor_id}`)} onCancel={() => navigate('/distributor')} />
      </Card>
    </>
  );
}

function refLink(r: HistoryRow) {
  if (r.hide_link === 'purchase') return <Link className="pu-link" to={`/purchase/${r.ref}`}>Purchase #{r.ref}</Link>;
  if (r.hide_link === 'debit-note')
    return (
      <NotePdfLink kind="debit-note" id={r.ref!} testId={`ledger-debit-note-${r.ref}`}>
        {r.doc_no ?? `Debit note #${r.ref}`}
      </NotePdfLink>
    );
  return null;
}

/** /distributor/transaction/{id}: the distributor's account, with its details (read/edit) in a modal. */
export function DistributorLedgerPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const { details, setDetails, failed } = usePartyDetails<Distributor & { due: number; dueDate: string | null }>('/getDistributorsDetails', id);
  const [showDetails, setShowDetails] = useState(false);
  const [version, setVersion] = useState(0);

  if (failed) return <NotFound title="Distributor not found" back="/distributor" backLabel="Back to Distributors" />;
  if (!details) return <Spinner label="Loading distributor…" />;
  return (
    <>
      <div className="bk-page-title">
        <div>
          <h1 data-testid="distributor-name">{details.name}</h1>
          <span className="bk-muted">
            Distributor #{details.distributor_id} · {details.city_or_district}, {details.state}
          </span>
        </div>
        <div className="pu-actions">
          <Button variant="secondary" onClick={() => setShowDetails(true)}>
            Show Details
          </Button>
          <ExportButtons compact list="distributorHistory" query={{ id: details.distributor_id }} />
          <Button onClick={() => navigate('/payments/givePayment')}>Give Payment</Button>
        </div>
      </div>
      <StatCards
        stats={[
          { label: 'Total Due', value: formatINR(details.due), due: details.due > 0, testId: 'distributor-due' },
          { label: 'Due Date', value: details.dueDate ?? '—' },
          { label: 'State', value: details.state_code ? `${details.state} (${details.state_code})` : details.state || '—', small: true, testId: 'distributor-state' },
          { label: 'GSTIN', value: details.gstin || '—', small: true, testId: 'distributor-gstin' },
          { label: 'Officers', value: details.officers?.map((o) => o.name).join(', ') || '—', small: true },
        ]}
      />
      <PartyHistoryTable key={version} path="/distributorsHistory" id={id} testId="distributor-history" refLink={refLink} pageBase={0} />
      <Modal open={showDetails} title="Distributor Details" onClose={() => setShowDetails(false)} width={680}>
        <DistributorForm
          testId="distributor-details-form"
          distributor={details}
          onSaved={(d) => {
            setDetails({ ...details, ...d });
            setVersion((v) => v + 1);
          }}
        />
      </Modal>
    </>
  );
}

/** Mounted by the shell at /distributor/*. */
export default function DistributorsArea() {
  return (
    <Routes>
      <Route index element={<DistributorListPage />} />
      <Route path="add" element={<AddDistributorPage />} />
      <Route path="import" element={<DistributorImportPage />} />
      <Route path="transaction/:id" element={<DistributorLedgerPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
