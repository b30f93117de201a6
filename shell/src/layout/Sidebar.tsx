import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { api } from '@bahi/ui-kit';
import { navFor } from '../remoteAreas';
import { Icon } from './Icon';
import { useAreaLabel } from './labels';

export function Sidebar({ position, collapsed }: { position: string | undefined; collapsed: boolean }) {
  const { t } = useTranslation('shell');
  const label = useAreaLabel();
  const { pathname } = useLocation();
  // Staff see an entry a company setting opens to them (Expenses with staff_expenses); read once.
  const [settings, setSettings] = useState<{ staff_expenses?: boolean }>({});
  useEffect(() => {
    if (position !== 'staff') return;
    let live = true;
    api.get<{ staff_expenses?: boolean }>('/getCompanyDetails', { authRedirect: false }).then(
      (c) => live && setSettings({ staff_expenses: c.staff_expenses === true }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [position]);
  return (
    <nav className="sh-sidebar" aria-label={t('nav.main')} data-collapsed={collapsed || undefined}>
      {/* The logo leads home: the dashboard for managers, the counter for staff (where login lands them). */}
      <Link className="sh-brand" to={position === 'manager' ? '/reports' : '/'} aria-label={t('brand.home')} data-testid="brand-home">
        <span className="sh-brand__mark">ब</span>
        {!collapsed && <span className="sh-brand__name">{t('brand.name')}</span>}
      </Link>
      <ul>
        {navFor(position, settings).map((e) => (
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
