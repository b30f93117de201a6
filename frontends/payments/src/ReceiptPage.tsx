import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { Trans, useTranslation } from '@bahi/i18n';
import { Button, ShareButton, Spinner, errorMessage, formatINR, api, openDocument, useAlert } from '@bahi/ui-kit';
import type { CompanyDetails, Receipt } from '@bahi/contracts';

type Company = CompanyDetails;

/** /payments/receivePayment/{id}[/{prints}]: the money receipt; a prints value of 'print' prints it at once. */
export function ReceiptPage() {
  const { id, prints } = useParams();
  const [query] = useSearchParams();
  const alert = useAlert();
  const { t } = useTranslation('payments');
  const { t: tu } = useTranslation('ui');
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
  const print = () => openDocument(receiptPdf, { print: true }).catch(() => alert.error(t('receipt.printFailed')));
  const pdf = () => openDocument(receiptPdf, { newTab: true }).catch(() => alert.error(t('receipt.printFailed')));

  useEffect(() => {
    if (state && autoPrint) void print();
  }, [state, autoPrint]);

  if (failed) {
    return (
      <div className="bk-card bk-card__body">
        <h2>{t('receipt.notFound')}</h2>
        <Link to="/payments/receivePayment">{t('receipt.back')}</Link>
      </div>
    );
  }
  if (!state) return <Spinner label={t('receipt.loading')} />;
  const { data: r, companyDetails: c } = state;

  return (
    <>
      <div className="pm-toolbar">
        <Button onClick={() => void print()} data-testid="print-receipt">
          {t('receipt.print')}
        </Button>
        <Button variant="secondary" onClick={pdf}>
          {t('receipt.pdf')}
        </Button>
        <ShareButton kind="receipt" id={id ?? ''} />
        <Link className="bk-btn bk-btn--secondary" to={`/clientList/transaction/${r.client_id}`}>
          {t('receipt.ledger')}
        </Link>
        <Link className="bk-btn bk-btn--ghost" to="/payments/receivePayment">
          {t('receipt.newPayment')}
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
            <h3>{t('receipt.title')}</h3>
            <p>
              <Trans t={t} i18nKey="receipt.no" values={{ no: String(r.id) }} components={{ no: <strong data-testid="receipt-no" /> }} />
            </p>
            <p>{t('receipt.date', { date: r.date })}</p>
          </div>
        </header>
        <dl className="pm-receipt__body">
          <dt>{t('receipt.receivedFrom')}</dt>
          <dd data-testid="receipt-name">
            {t('receipt.customer', { name: r.name, id: String(r.client_id) })}
          </dd>
          <dt>{t('receipt.mobile')}</dt>
          <dd>+91 {r.mobile_no}</dd>
          {r.address && (
            <>
              <dt>{t('receipt.address')}</dt>
              <dd>{r.address}</dd>
            </>
          )}
          <dt>{t('receipt.mode')}</dt>
          <dd data-testid="receipt-modes">
            {r.payments?.length
              ? // Each tender with its amount and reference (issue 28), as the ledger recorded it.
                r.payments.map((p) => `${tu(`payModes.${p.mode}`)} ${formatINR(p.amount)}${p.ref ? ` · ${p.ref}` : ''}`).join(' + ')
              : `${r.type}${r.transaction_id ? ` · ${r.transaction_id}` : ''}`}
          </dd>
        </dl>
        <div className="pm-receipt__amount">
          <span>{t('receipt.amount')}</span>
          <span data-testid="receipt-amount">{formatINR(r.amount)}</span>
        </div>
        <div className="pm-receipt__dues">
          <div>
            <span>{t('receipt.previousDue')}</span>
            <strong>{formatINR(r.previous_due)}</strong>
          </div>
          <div>
            <span>{t('receipt.balanceDue')}</span>
            <strong data-testid="receipt-due">{formatINR(r.due)}</strong>
          </div>
          <div>
            <span>{t('receipt.nextDueDate')}</span>
            <strong>{r.next_due_date ?? '—'}</strong>
          </div>
        </div>
        <p className="pm-receipt__sign">{t('receipt.sign', { name: c.name })}</p>
      </article>
    </>
  );
}
