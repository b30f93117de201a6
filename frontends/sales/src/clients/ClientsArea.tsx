import { Route, Routes } from 'react-router-dom';
import { AddClientPage } from './AddClientPage';
import { ClientLedgerPage } from './ClientLedgerPage';
import { ClientListPage } from './ClientListPage';
import './clients.css';

/** Customer screens, mounted by the shell at /clientList/* (routes here are relative to it). */
export default function ClientsArea() {
  return (
    <Routes>
      <Route index element={<ClientListPage />} />
      <Route path="add-client" element={<AddClientPage />} />
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
