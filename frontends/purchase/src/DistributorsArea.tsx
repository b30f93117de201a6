import './i18n';
import { useCallback, useState } from 'react';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router-dom';
import type { DistributorListRow, HistoryRow } from '@bahi/contracts';
import { useTranslation } from '@bahi/i18n';
import { Button, Card, ExportButtons, ImportWizard, Modal, NotePdfLink, PagedTable, PartyHistoryTable, Spinner, StatCards, api, formatINR, useAlert, usePartyDetails, type Column } from '@bahi/ui-kit';
import type { Distributor } from './distributor';
import { DistributorForm } from './DistributorForm';
import { NotFound } from './NotFound';
import './purchase.css';

type ListRow = DistributorListRow & Record<string, unknown>;

/** /distributor: the distributors with what we owe each. */
export function DistributorListPage() {
  const navigate = useNavigate();
  const alert = useAlert();
  const { t } = useTranslation('purchase');
  const columns: Column<ListRow>[] = [
    { key: 'id', header: t('common.id') },
    { key: 'name', header: t('common.name') },
    { key: 'city_or_district', header: t('distributors.city') },
    { key: 'due', header: t('distributors.due'), align: 'right', render: (r) => formatINR(r.due) },
  ];
  return (
    <>
      <div className="bk-page-title">
        <h1>{t('distributors.title')}</h1>
        <div className="pu-title-actions">
          <ExportButtons list="distributors" onError={(m) => alert.error(m)} />
          <Button variant="secondary" onClick={() => navigate('/distributor/import')}>
            {t('common.import')}
          </Button>
          <Button onClick={() => navigate('/distributor/add')}>{t('distributors.add')}</Button>
        </div>
      </div>
      <PagedTable<ListRow>
        title={t('distributors.table')}
        testId="distributor-table"
        pageBase={0}
        columns={columns}
        rowUrl="/distributor/transaction"
        load={async (pageNo, signal) => {
          const r = await api.get<{ distributorsList: ListRow[]; noOfPages: number }>('/getDistributorsList', { query: { pageNo }, signal });
          return { rows: r.distributorsList, noOfPages: r.noOfPages };
        }}
        emptyText={t('distributors.empty')}
      />
    </>
  );
}

/** /distributor/import: distributors (with opening balances) from a CSV or XLSX sheet. */
function DistributorImportPage() {
  const navigate = useNavigate();
  const { t } = useTranslation('purchase');
  return <ImportWizard kind="distributors" title={t('distributors.importTitle')} doneLabel={t('distributors.importDone')} onDone={() => navigate('/distributor')} />;
}

/** /distributor/add */
export function AddDistributorPage() {
  const navigate = useNavigate();
  const { t } = useTranslation('purchase');
  return (
    <>
      <div className="bk-page-title">
        <h1>{t('distributors.add')}</h1>
      </div>
      <Card title={t('distributors.card')}>
        <DistributorForm testId="add-distributor-form" onSaved={(d) => navigate(`/distributor/transaction/${d.distributor_id}`)} onCancel={() => navigate('/distributor')} />
      </Card>
    </>
  );
}

/** /distributor/transaction/{id}: the distributor's account, with its details (read/edit) in a modal. */
export function DistributorLedgerPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const { details, setDetails, failed } = usePartyDetails<Distributor & { due: number; dueDate: string | null }>('/getDistributorsDetails', id);
  const [showDetails, setShowDetails] = useState(false);
  const [version, setVersion] = useState(0);
  const { t } = useTranslation('purchase');
  // The ledger's reference cell: a purchase opens its page, a debit note its PDF.
  const refLink = useCallback((r: HistoryRow) => {
    if (r.hide_link === 'purchase')
      return (
        <Link className="pu-link" to={`/purchase/${r.ref}`}>
          {t('distributors.purchaseRef', { id: String(r.ref) })}
        </Link>
      );
    if (r.hide_link === 'debit-note')
      return (
        <NotePdfLink kind="debit-note" id={r.ref!} testId={`ledger-debit-note-${r.ref}`}>
          {r.doc_no ?? t('distributors.debitNoteRef', { id: String(r.ref) })}
        </NotePdfLink>
      );
    return null;
  }, [t]);

  if (failed) return <NotFound title={t('distributors.notFound')} back="/distributor" backLabel={t('distributors.back')} />;
  if (!details) return <Spinner label={t('distributors.loading')} />;
  return (
    <>
      <div className="bk-page-title">
        <div>
          <h1 data-testid="distributor-name">{details.name}</h1>
          <span className="bk-muted">
            {t('distributors.subtitle', { id: String(details.distributor_id), city: details.city_or_district, state: details.state })}
          </span>
        </div>
        <div className="pu-actions">
          <Button variant="secondary" onClick={() => setShowDetails(true)}>
            {t('distributors.showDetails')}
          </Button>
          <ExportButtons compact list="distributorHistory" query={{ id: details.distributor_id }} />
          <Button onClick={() => navigate('/payments/givePayment')}>{t('distributors.givePayment')}</Button>
        </div>
      </div>
      <StatCards
        stats={[
          { label: t('distributors.totalDue'), value: formatINR(details.due), due: details.due > 0, testId: 'distributor-due' },
          { label: t('common.dueDate'), value: details.dueDate ?? '—' },
          { label: t('distributors.state'), value: details.state_code ? `${details.state} (${details.state_code})` : details.state || '—', small: true, testId: 'distributor-state' },
          { label: t('distributors.gstin'), value: details.gstin || '—', small: true, testId: 'distributor-gstin' },
          { label: t('distributors.officers'), value: details.officers?.map((o) => o.name).join(', ') || '—', small: true },
        ]}
      />
      <PartyHistoryTable key={version} path="/distributorsHistory" id={id} testId="distributor-history" refLink={refLink} pageBase={0} />
      <Modal open={showDetails} title={t('distributors.details')} onClose={() => setShowDetails(false)} width={680}>
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
