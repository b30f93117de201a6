import './i18n';
import { Navigate, Route, Routes } from 'react-router-dom';
import { GstReturnsPage } from './GstReturnsPage';
import { DashboardPage } from './dashboard/DashboardPage';
import { AgeingPage } from './pages/AgeingPage';
import { CashbookPage } from './pages/CashbookPage';
import { DaybookPage } from './pages/DaybookPage';
import { PnlPage } from './pages/PnlPage';
import { ProfitPage } from './pages/ProfitPage';
import { ReportsMenu } from './pages/ReportFrame';
import { PurchaseRegisterPage } from './pages/PurchaseRegisterPage';
import { SalesRegisterPage } from './pages/SalesRegisterPage';
import { StockSummaryPage } from './pages/StockSummaryPage';
import './pages/pages.css';
import './reports.css';

/** Mounted by the shell at /reports/* (managers only: the shell's route loader refuses others). */
export default function ReportsArea() {
  return (
    <Routes>
      <Route index element={<DashboardPage />} />
      <Route
        path="gst"
        element={
          <div className="rp-report">
            <ReportsMenu />
            <GstReturnsPage />
          </div>
        }
      />
      <Route path="daybook" element={<DaybookPage />} />
      <Route path="sales-register" element={<SalesRegisterPage />} />
      <Route path="purchase-register" element={<PurchaseRegisterPage />} />
      <Route path="stock-summary" element={<StockSummaryPage />} />
      <Route path="cashbook" element={<CashbookPage />} />
      <Route path="profit" element={<ProfitPage />} />
      <Route path="pnl" element={<PnlPage />} />
      <Route path="ageing" element={<AgeingPage />} />
      <Route path="*" element={<Navigate to="gst" replace />} />
    </Routes>
  );
}
