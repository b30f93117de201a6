import { Route, Routes, useNavigate } from 'react-router-dom';
import { ImportWizard } from '@bahi/ui-kit';
import { AddClientPage } from './AddClientPage';
import { ClientLedgerPage } from './ClientLedgerPage';
import { ClientListPage } from './ClientListPage';
import './clients.css';

/** /clientList/import: customers (with opening balances) from a CSV or XLSX sheet; managers. */
function CustomerImportPage() {
  const navigate = useNavigate();
  return <ImportWizard kind="customers" title="Import Customers" doneLabel="See the customers" onDone={() => navigate('/clientList')} />;
}

/** Customer screens, mounted by the shell at /clientList/* (routes here are relative to it). */
export default function ClientsArea() {
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
            <h2>Page Not Found!</h2>
          </div>
        }
      />
    </Routes>
  );
}
