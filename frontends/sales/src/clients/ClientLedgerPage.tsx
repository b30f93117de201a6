import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Button, Modal, PagedTable, Spinner, api, errorMessage, formatINR, openDocument, useAlert, type Column } from '@bahi/ui-kit';
import type { Customer } from './customer';
import { CustomerForm } from './CustomerForm';

interface Details extends Customer {
  due: number;
  dueDate: string | null;
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

function refCell(r: HistoryRow) {
  if (r.ref === null) return '—';
  if (r.hide_link === 'bill') return <Link className="cl-link" to={`/salesList/bill/show/${r.ref}`}>Sale #{r.ref}</Link>;
  if (r.hide_link === 'receipt') return <Link className="cl-link" to={`/payments/receivePayment/${r.ref}`}>Receipt #{r.ref}</Link>;
  return `#${r.ref}`;
}

const COLUMNS: Column<HistoryRow>[] = [
  { key: 'date', header: 'Date' },
  { key: 'type', header: 'Transaction' },
  { key: 'ref', header: 'Reference', render: refCell },
  { key: 'amount', header: 'Amount', align: 'right', render: (r) => formatINR(r.amount) },
  { key: 'paid', header: 'Paid', align: 'right', render: (r) => (r.paid ? formatINR(r.paid) : '—') },
  { key: 'balance', header: 'Balance', align: 'right', render: (r) => formatINR(r.balance) },
  { key: 'due_date', header: 'Due Date', render: (r) => r.due_date ?? '—' },
];

/** /clientList/transaction/{id}: the customer's transactions, details modal and statement. */
export function ClientLedgerPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const alert = useAlert();
  const [details, setDetails] = useState<Details | null>(null);
  const [failed, setFailed] = useState(false);
  const [showDetails, setShowDetails] = useState(false);
  const [printing, setPrinting] = useState(false);
  const [version, setVersion] = useState(0);

  const load = useCallback(() => {
    api
      .get<{ data: Details }>('/getClientsDetails', { query: { id } })
      .then((r) => setDetails(r.data))
      .catch((err) => {
        setFailed(true);
        alert.error(errorMessage(err));
      });
  }, [id, alert]);
  useEffect(load, [load]);

  const print = async () => {
    setPrinting(true);
    try {
      await openDocument(`/documents/statement/${id}`, { print: true });
    } catch {
      alert.error('Unable to print all transactions');
    } finally {
      setPrinting(false);
    }
  };

  if (failed) {
    return (
      <div className="bk-card bk-card__body">
        <h2>Customer not found</h2>
        <Link className="cl-link" to="/clientList">
          Back to Customer Details
        </Link>
      </div>
    );
  }
  if (!details) return <Spinner label="Loading customer…" />;

  return (
    <>
      <div className="bk-page-title">
        <div>
          <h1 data-testid="ledger-name">{details.name}</h1>
          <span className="bk-muted">
            Customer #{details.client_id} · +91 {details.mobile_no}
          </span>
        </div>
        <div className="cl-title-actions">
          <Button variant="secondary" onClick={() => setShowDetails(true)}>
            Show Details
          </Button>
          <Button variant="secondary" busy={printing} onClick={print}>
            Print All Transactions
          </Button>
          <Button onClick={() => navigate(`/payments/receivePayment?custId=${details.client_id}`)}>Receive Payment</Button>
        </div>
      </div>
      <div className="cl-summary">
        <div className="cl-stat">
          <span className="cl-stat__label">Total Due</span>
          <span className={`cl-stat__value ${details.due > 0 ? 'cl-stat__value--due' : ''}`} data-testid="ledger-due">
            {formatINR(details.due)}
          </span>
        </div>
        <div className="cl-stat">
          <span className="cl-stat__label">Due Date</span>
          <span className="cl-stat__value">{details.dueDate ?? '—'}</span>
        </div>
        <div className="cl-stat">
          <span className="cl-stat__label">City</span>
          <span className="cl-stat__value">{details.city_or_district}</span>
        </div>
      </div>
      <PagedTable<HistoryRow>
        key={version}
        title="Transactions"
        testId="ledger-table"
        columns={COLUMNS}
        load={async (pageNo, signal) => {
          const r = await api.get<{ list: HistoryRow[]; noOfPages: number }>('/getAllClientsHistory', { query: { pageNo, id }, signal });
          return { rows: r.list, noOfPages: r.noOfPages };
        }}
        emptyText="No transactions yet."
      />
      <Modal open={showDetails} title="Customer Details" onClose={() => setShowDetails(false)} width={640}>
        <CustomerForm
          testId="client-details-form"
          customer={details}
          onSaved={(c) => {
            setDetails({ ...details, ...c });
            setVersion((v) => v + 1);
          }}
        />
      </Modal>
    </>
  );
}
