import { useCallback, useEffect, useState } from 'react';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router-dom';
import { Button, Card, Modal, PagedTable, Spinner, api, errorMessage, formatINR, useAlert, type Column } from '@bahi/ui-kit';
import type { Distributor } from './distributor';
import { DistributorForm } from './DistributorForm';
import { NotFound } from './NotFound';
import './purchase.css';

interface ListRow extends Record<string, unknown> {
  id: number;
  name: string;
  city_or_district: string;
  due: number;
}
const LIST_COLUMNS: Column<ListRow>[] = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'Name' },
  { key: 'city_or_district', header: 'City' },
  { key: 'due', header: 'Due', align: 'right', render: (r) => formatINR(r.due) },
];

/** /distributor: the distributors with what we owe each. */
export function DistributorListPage() {
  const navigate = useNavigate();
  return (
    <>
      <div className="bk-page-title">
        <h1>Distributors</h1>
        <Button onClick={() => navigate('/distributor/add')}>Add Distributor</Button>
      </div>
      <PagedTable<ListRow>
        title="Distributor List"
        testId="distributor-table"
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

interface HistoryRow extends Record<string, unknown> {
  id: string;
  date: string;
  type: string;
  ref: number | null;
  amount: number;
  paid: number;
  balance: number;
  due_date: string | null;
  hide_link: string | null;
}
const HISTORY_COLUMNS: Column<HistoryRow>[] = [
  { key: 'date', header: 'Date' },
  { key: 'type', header: 'Transaction' },
  {
    key: 'ref',
    header: 'Reference',
    render: (r) =>
      r.ref === null ? '—' : r.hide_link === 'purchase' ? <Link className="pu-link" to={`/purchase/${r.ref}`}>Purchase #{r.ref}</Link> : `#${r.ref}`,
  },
  { key: 'amount', header: 'Amount', align: 'right', render: (r) => formatINR(r.amount) },
  { key: 'paid', header: 'Paid', align: 'right', render: (r) => (r.paid ? formatINR(r.paid) : '—') },
  { key: 'balance', header: 'Balance', align: 'right', render: (r) => formatINR(r.balance) },
  { key: 'due_date', header: 'Due Date', render: (r) => r.due_date ?? '—' },
];

/** /distributor/transaction/{id}: the distributor's account, with its details (read/edit) in a modal. */
export function DistributorLedgerPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const alert = useAlert();
  const [details, setDetails] = useState<(Distributor & { due: number; dueDate: string | null }) | null>(null);
  const [failed, setFailed] = useState(false);
  const [showDetails, setShowDetails] = useState(false);
  const [version, setVersion] = useState(0);

  const load = useCallback(() => {
    api
      .get<{ data: Distributor & { due: number; dueDate: string | null } }>('/getDistributorsDetails', { query: { id } })
      .then((r) => setDetails(r.data))
      .catch((err) => {
        setFailed(true);
        alert.error(errorMessage(err));
      });
  }, [id, alert]);
  useEffect(load, [load]);

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
          <Button onClick={() => navigate('/payments/givePayment')}>Give Payment</Button>
        </div>
      </div>
      <div className="pu-summary">
        <div className="pu-stat">
          <span className="pu-stat__label">Total Due</span>
          <span className={`pu-stat__value ${details.due > 0 ? 'pu-stat__value--due' : ''}`} data-testid="distributor-due">
            {formatINR(details.due)}
          </span>
        </div>
        <div className="pu-stat">
          <span className="pu-stat__label">Due Date</span>
          <span className="pu-stat__value">{details.dueDate ?? '—'}</span>
        </div>
        <div className="pu-stat">
          <span className="pu-stat__label">Officers</span>
          <span className="pu-stat__value pu-stat__value--small">{details.officers?.map((o) => o.name).join(', ') || '—'}</span>
        </div>
      </div>
      <PagedTable<HistoryRow>
        key={version}
        title="Transactions"
        testId="distributor-history"
        columns={HISTORY_COLUMNS}
        load={async (pageNo, signal) => {
          const r = await api.get<{ list: HistoryRow[]; noOfPages: number }>('/distributorsHistory', { query: { pageNo, id }, signal });
          return { rows: r.list, noOfPages: r.noOfPages };
        }}
        emptyText="No transactions yet."
      />
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
      <Route path="transaction/:id" element={<DistributorLedgerPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
