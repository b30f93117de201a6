import { Route, Routes, useNavigate } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { ImportWizard } from '@bahi/ui-kit';
import '../i18n';
import { AddClientPage } from './AddClientPage';
import { ClientLedgerPage } from './ClientLedgerPage';
import { ClientListPage } from './ClientListPage';
import './clients.css';

/** /clientList/import: customers (with opening balances) from a CSV or XLSX sheet; managers. */
function CustomerImportPage() {
  const navigate = useNavigate();
  const { t } = useTranslation('sales');
  return <ImportWizard kind="customers" title={t('clients.importTitle')} doneLabel={t('clients.importDone')} onDone={() => navigate('/clientList')} />;
}

/** Customer screens, mounted by the shell at /clientList/* (routes here are relative to it). */
export default function ClientsArea() {
  const { t } = useTranslation('sales');
  return (
    <Routes>
      <Route index element={<ClientListPage />} />
      <Route path="add-client" element={<AddClientPage />} />
      <Route path="import" element={<CustomerImportPage />} />
      <Route path="transaction/:id" element={<ClientLedgerPage />} />
      <Route
        path="*"
        element={
          <div className="bk-card bk-card__body">
            <h2>{t('common.notFound')}</h2>
          </div>
        }
      />
    </Routes>
  );
}
