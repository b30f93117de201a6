import { NavLink, Route, Routes } from 'react-router-dom';
import './i18n';
import { useTranslation } from '@bahi/i18n';
import { BackupsPage } from './BackupsPage';
import { CompanyDetailPage } from './CompanyDetailPage';
import { CompanyListPage } from './CompanyListPage';
import { CreateCompanyPage } from './CreateCompanyPage';
import './admin.css';

/** Platform administration, mounted by the shell at /admin/* (routes here are relative to it). */
export default function AdminApp() {
  const { t } = useTranslation('admin');
  return (
    <div className="ad-area">
      <nav className="ad-tabs" aria-label={t('nav.label')}>
        <NavLink end to="/admin">
          {t('nav.companies')}
        </NavLink>
        <NavLink to="/admin/createCompany">{t('nav.addCompany')}</NavLink>
        <NavLink to="/admin/backups">{t('nav.backups')}</NavLink>
        <NavLink to="/admin/setting">{t('nav.setting')}</NavLink>
      </nav>
      <Routes>
        <Route index element={<CompanyListPage />} />
        <Route path="createCompany" element={<CreateCompanyPage />} />
        <Route path="company/:companyId" element={<CompanyDetailPage />} />
        <Route path="backups" element={<BackupsPage />} />
        <Route
          path="*"
          element={
            <div className="bk-card bk-card__body" data-testid="admin-not-found">
              <h2>{t('notFound')}</h2>
            </div>
          }
        />
      </Routes>
    </div>
  );
}
