import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { GetClientsDetailsReply, HistoryRow } from '@bahi/contracts';
import { useTranslation } from '@bahi/i18n';
import { Button, ExportButtons, Modal, NotePdfLink, PartyHistoryTable, ShareButton, Spinner, StatCards, formatINR, openDocument, useAlert, usePartyDetails } from '@bahi/ui-kit';
import { CustomerForm } from './CustomerForm';

type Details = GetClientsDetailsReply['data'];

function RefLink({ r }: { r: HistoryRow }) {
  const { t } = useTranslation('sales');
  if (r.hide_link === 'bill') return <Link className="cl-link" to={`/salesList/bill/show/${r.ref}`}>{t('ledger.sale', { no: r.ref })}</Link>;
  if (r.hide_link === 'receipt') return <Link className="cl-link" to={`/payments/receivePayment/${r.ref}`}>{t('ledger.receipt', { no: r.ref })}</Link>;
  if (r.hide_link === 'credit-note')
    return (
      <NotePdfLink kind="credit-note" id={r.ref!} testId={`ledger-credit-note-${r.ref}`}>
        {r.doc_no ?? t('ledger.creditNote', { no: r.ref })}
      </NotePdfLink>
    );
  return null;
}

const refLink = (r: HistoryRow) => <RefLink r={r} />;

/** /clientList/transaction/{id}: the customer's transactions, details modal and statement. */
export function ClientLedgerPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const alert = useAlert();
  const { details, setDetails, failed } = usePartyDetails<Details>('/getClientsDetails', id);
  const [showDetails, setShowDetails] = useState(false);
  const [printing, setPrinting] = useState(false);
  const [version, setVersion] = useState(0);
  const { t } = useTranslation('sales');

  const print = async () => {
    setPrinting(true);
    try {
      await openDocument(`/documents/statement/${id}`, { print: true });
    } catch {
      alert.error(t('ledger.printFailed'));
    } finally {
      setPrinting(false);
    }
  };

  if (failed) {
    return (
      <div className="bk-card bk-card__body">
        <h2>{t('ledger.notFound')}</h2>
        <Link className="cl-link" to="/clientList">
          {t('ledger.back')}
        </Link>
      </div>
    );
  }
  if (!details) return <Spinner label={t('ledger.loading')} />;

  return (
    <>
      <div className="bk-page-title">
        <div>
          <h1 data-testid="ledger-name">{details.name}</h1>
          <span className="bk-muted">
            {t('ledger.customerNo', { no: details.client_id })} · <span className="cl-nowrap">+91 {details.mobile_no}</span>
          </span>
        </div>
        <div className="cl-title-actions">
          <Button variant="secondary" onClick={() => setShowDetails(true)}>
            {t('ledger.showDetails')}
          </Button>
          <Button variant="secondary" busy={printing} onClick={print}>
            {t('ledger.printAll')}
          </Button>
          <ExportButtons compact list="customerHistory" query={{ id: details.client_id }} onError={(m) => alert.error(m)} />
          <ShareButton kind="statement" id={details.client_id} label={t('ledger.share')} />
          <Button onClick={() => navigate(`/payments/receivePayment?custId=${details.client_id}`)}>{t('ledger.receive')}</Button>
        </div>
      </div>
      <StatCards
        stats={[
          { label: t('ledger.totalDue'), value: formatINR(details.due), due: details.due > 0, testId: 'ledger-due' },
          { label: t('ledger.dueDate'), value: details.dueDate ?? '—' },
          { label: t('customerForm.city'), value: details.city_or_district },
          { label: t('customerForm.state'), value: details.state_code ? `${details.state} (${details.state_code})` : details.state || '—', small: true, testId: 'ledger-state' },
          { label: details.gstin ? t('ledger.gstinB2b') : t('customerForm.gstin'), value: details.gstin || '—', small: true, testId: 'ledger-gstin' },
        ]}
      />
      <PartyHistoryTable key={version} path="/getAllClientsHistory" id={id} testId="ledger-table" refLink={refLink} />
      <Modal open={showDetails} title={t('clients.title')} onClose={() => setShowDetails(false)} width={640}>
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
