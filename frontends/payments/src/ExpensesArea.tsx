import './i18n';
import { Route, Routes } from 'react-router-dom';
import { ExpensesPage } from './ExpensesPage';
import { OpeningPage } from './OpeningPage';
import './payments.css';

/** Mounted by the shell at /payments/expenses/*: the expenses, and the books' opening balances (managers). */
export default function ExpensesArea() {
  return (
    <Routes>
      <Route index element={<ExpensesPage />} />
      <Route path="opening" element={<OpeningPage />} />
    </Routes>
  );
}
