import { NavLink } from 'react-router-dom';
import { navFor } from '../remoteAreas';
import { Icon } from './Icon';

export function Sidebar({ position, collapsed }: { position: string | undefined; collapsed: boolean }) {
  return (
    <nav className="sh-sidebar" aria-label="Main" data-collapsed={collapsed || undefined}>
      <div className="sh-brand">
        <span className="sh-brand__mark">ब</span>
        {!collapsed && <span className="sh-brand__name">Bahi</span>}
      </div>
      <ul>
        {navFor(position).map((e) => (
          <li key={e.to}>
            <NavLink to={e.to} end={e.to === '/' || e.end} title={e.label} className={({ isActive }) => (isActive ? 'active' : undefined)}>
              <Icon name={e.icon} />
              {!collapsed && <span>{e.label}</span>}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
