import './i18n';
import { Route, Routes } from 'react-router-dom';
import { ReceiptPage } from './ReceiptPage';
import { ReceivePaymentPage } from './ReceivePaymentPage';
import './payments.css';

/** Mounted by the shell at /payments/receivePayment/*. */
export default function ReceivePaymentArea() {
  return (
    <Routes>
      <Route index element={<ReceivePaymentPage />} />
      <Route path=":id" element={<ReceiptPage />} />
      <Route path=":id/:prints" element={<ReceiptPage />} />
    </Routes>
  );
}
