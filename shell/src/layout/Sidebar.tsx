import { Link, NavLink, useLocation } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { navFor } from '../remoteAreas';
import { Icon } from './Icon';
import { useAreaLabel } from './labels';

export function Sidebar({ position, collapsed }: { position: string | undefined; collapsed: boolean }) {
  const { t } = useTranslation('shell');
  const label = useAreaLabel();
  const { pathname } = useLocation();
  return (
    <nav className="sh-sidebar" aria-label={t('nav.main')} data-collapsed={collapsed || undefined}>
      {/* The logo leads home: the dashboard for managers, the counter for staff (where login lands them). */}
      <Link className="sh-brand" to={position === 'manager' ? '/reports' : '/'} aria-label={t('brand.home')} data-testid="brand-home">
        <span className="sh-brand__mark">ब</span>
        {!collapsed && <span className="sh-brand__name">{t('brand.name')}</span>}
      </Link>
      <ul>
        {navFor(position).map((e) => (
          <li key={e.to}>
            <NavLink to={e.to} end={e.to === '/' || e.end} title={label(e.label)} className={({ isActive }) => (isActive || (e.activeUnder && pathname.startsWith(e.activeUnder)) ? 'active' : undefined)}>
              <Icon name={e.icon} />
              {!collapsed && <span>{label(e.label)}</span>}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
