import './i18n';
import { Route, Routes } from 'react-router-dom';
import { GivePaymentPage } from './GivePaymentPage';
import './payments.css';

/** Mounted by the shell at /payments/givePayment/*. */
export default function GivePaymentArea() {
  return (
    <Routes>
      <Route index element={<GivePaymentPage />} />
    </Routes>
  );
}
