import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { Button, ShareButton, Spinner, errorMessage, formatINR, api, openDocument, useAlert } from '@bahi/ui-kit';
import type { CompanyDetails, Receipt } from '@bahi/contracts';

type Company = CompanyDetails;

/** /payments/receivePayment/{id}[/{prints}]: the money receipt; a prints value of 'print' prints it at once. */
export function ReceiptPage() {
  const { id, prints } = useParams();
  const [query] = useSearchParams();
  const alert = useAlert();
  const [state, setState] = useState<{ data: Receipt; companyDetails: Company } | null>(null);
  const [failed, setFailed] = useState(false);
  const autoPrint = (prints ?? query.get('prints')) === 'print';

  useEffect(() => {
    api
      .get<{ data: Receipt; companyDetails: Company }>('/getSalesPaymentDetails', { query: { id } })
      .then(setState)
      .catch((err) => {
        setFailed(true);
        alert.error(errorMessage(err));
      });
  }, [id, alert]);

  const receiptPdf = `/documents/receipt/${id}`;
  const print = () => openDocument(receiptPdf, { print: true }).catch(() => alert.error('Unable to print the receipt, please try again later.'));
  const pdf = () => openDocument(receiptPdf, { newTab: true }).catch(() => alert.error('Unable to print the receipt, please try again later.'));

  useEffect(() => {
    if (state && autoPrint) void print();
  }, [state, autoPrint]);

  if (failed) {
    return (
      <div className="bk-card bk-card__body">
        <h2>Receipt not found</h2>
        <Link to="/payments/receivePayment">Back to Receive Payment</Link>
      </div>
    );
  }
  if (!state) return <Spinner label="Loading receipt…" />;
  const { data: r, companyDetails: c } = state;

  return (
    <>
      <div className="pm-toolbar">
        <Button onClick={() => void print()} data-testid="print-receipt">
          Print
        </Button>
        <Button variant="secondary" onClick={pdf}>
          Open PDF
        </Button>
        <ShareButton kind="receipt" id={id ?? ''} />
        <Link className="bk-btn bk-btn--secondary" to={`/clientList/transaction/${r.client_id}`}>
          Customer Ledger
        </Link>
        <Link className="bk-btn bk-btn--ghost" to="/payments/receivePayment">
          New Payment
        </Link>
      </div>
      <article className="pm-receipt" data-testid="receipt">
        <header className="pm-receipt__head">
          <div className="pm-receipt__company">
            <h2>{c.name}</h2>
            {c.add1 && <p>{c.add1}</p>}
            {c.add2 && <p>{c.add2}</p>}
            <p>{[c.mob1, c.mob2].filter(Boolean).join(', ')}{c.email ? ` · ${c.email}` : ''}</p>
          </div>
          <div className="pm-receipt__title">
            <h3>Money Receipt</h3>
            <p>
              Receipt No. <strong data-testid="receipt-no">{r.id}</strong>
            </p>
            <p>Date {r.date}</p>
          </div>
        </header>
        <dl className="pm-receipt__body">
          <dt>Received from</dt>
          <dd data-testid="receipt-name">
            {r.name} (Customer #{r.client_id})
          </dd>
          <dt>Mobile</dt>
          <dd>+91 {r.mobile_no}</dd>
          {r.address && (
            <>
              <dt>Address</dt>
              <dd>{r.address}</dd>
            </>
          )}
          <dt>Mode</dt>
          <dd>
            {r.type}
            {r.transaction_id ? ` · ${r.transaction_id}` : ''}
          </dd>
        </dl>
        <div className="pm-receipt__amount">
          <span>Amount received</span>
          <span data-testid="receipt-amount">{formatINR(r.amount)}</span>
        </div>
        <div className="pm-receipt__dues">
          <div>
            <span>Previous due</span>
            <strong>{formatINR(r.previous_due)}</strong>
          </div>
          <div>
            <span>Balance due</span>
            <strong data-testid="receipt-due">{formatINR(r.due)}</strong>
          </div>
          <div>
            <span>Next due date</span>
            <strong>{r.next_due_date ?? '—'}</strong>
          </div>
        </div>
        <p className="pm-receipt__sign">For {c.name}</p>
      </article>
    </>
  );
}
