import { NavLink, Route, Routes } from 'react-router-dom';
import { CompanyDetailPage } from './CompanyDetailPage';
import { CompanyListPage } from './CompanyListPage';
import { CreateCompanyPage } from './CreateCompanyPage';
import './admin.css';

/** Platform administration, mounted by the shell at /admin/* (routes here are relative to it). */
export default function AdminApp() {
  return (
    <div className="ad-area">
      <nav className="ad-tabs" aria-label="Administration">
        <NavLink end to="/admin">
          Companies
        </NavLink>
        <NavLink to="/admin/createCompany">Add Company</NavLink>
      </nav>
      <Routes>
        <Route index element={<CompanyListPage />} />
        <Route path="createCompany" element={<CreateCompanyPage />} />
        <Route path="company/:companyId" element={<CompanyDetailPage />} />
        <Route
          path="*"
          element={
            <div className="bk-card bk-card__body" data-testid="admin-not-found">
              <h2>Page Not Found!</h2>
            </div>
          }
        />
      </Routes>
    </div>
  );
}
