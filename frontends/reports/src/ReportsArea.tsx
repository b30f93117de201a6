import './i18n';
import { Navigate, Route, Routes } from 'react-router-dom';
import { GstReturnsPage } from './GstReturnsPage';
import { DashboardPage } from './dashboard/DashboardPage';
import './reports.css';

/** Mounted by the shell at /reports/* (managers only: the shell's route loader refuses others). */
export default function ReportsArea() {
  return (
    <Routes>
      <Route index element={<DashboardPage />} />
      <Route path="gst" element={<GstReturnsPage />} />
      <Route path="*" element={<Navigate to="gst" replace />} />
    </Routes>
  );
}
