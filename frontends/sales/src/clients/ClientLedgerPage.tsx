import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { GetClientsDetailsReply, HistoryRow } from '@bahi/contracts';
import { Button, ExportButtons, Modal, NotePdfLink, PartyHistoryTable, ShareButton, Spinner, StatCards, formatINR, openDocument, useAlert, usePartyDetails } from '@bahi/ui-kit';
import { CustomerForm } from './CustomerForm';

type Details = GetClientsDetailsReply['data'];

function refLink(r: HistoryRow) {
  if (r.hide_link === 'bill') return <Link className="cl-link" to={`/salesList/bill/show/${r.ref}`}>Sale #{r.ref}</Link>;
  if (r.hide_link === 'receipt') return <Link className="cl-link" to={`/payments/receivePayment/${r.ref}`}>Receipt #{r.ref}</Link>;
  if (r.hide_link === 'credit-note')
    return (
      <NotePdfLink kind="credit-note" id={r.ref!} testId={`ledger-credit-note-${r.ref}`}>
        {r.doc_no ?? `Credit note #${r.ref}`}
      </NotePdfLink>
    );
  return null;
}

/** /clientList/transaction/{id}: the customer's transactions, details modal and statement. */
export function ClientLedgerPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const alert = useAlert();
  const { details, setDetails, failed } = usePartyDetails<Details>('/getClientsDetails', id);
  const [showDetails, setShowDetails] = useState(false);
  const [printing, setPrinting] = useState(false);
  const [version, setVersion] = useState(0);

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
          <ExportButtons compact list="customerHistory" query={{ id: details.client_id }} onError={(m) => alert.error(m)} />
          <ShareButton kind="statement" id={details.client_id} label="Share statement" />
          <Button onClick={() => navigate(`/payments/receivePayment?custId=${details.client_id}`)}>Receive Payment</Button>
        </div>
      </div>
      <StatCards
        stats={[
          { label: 'Total Due', value: formatINR(details.due), due: details.due > 0, testId: 'ledger-due' },
          { label: 'Due Date', value: details.dueDate ?? '—' },
          { label: 'City', value: details.city_or_district },
          { label: 'State', value: details.state_code ? `${details.state} (${details.state_code})` : details.state || '—', small: true, testId: 'ledger-state' },
          { label: details.gstin ? 'GSTIN · B2B' : 'GSTIN', value: details.gstin || '—', small: true, testId: 'ledger-gstin' },
        ]}
      />
      <PartyHistoryTable key={version} path="/getAllClientsHistory" id={id} testId="ledger-table" refLink={refLink} />
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
