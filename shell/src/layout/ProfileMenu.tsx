import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { AboutBox } from './AboutBox';
import { Icon } from './Icon';

/** The user's name with a menu: Logout, Update Password (the platform admin's too) and, for managers, Setting. */
export function ProfileMenu({ name, manager }: { name: string; manager: boolean; admin?: boolean }) {
  const [open, setOpen] = useState(false);
  const [about, setAbout] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => !ref.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);
  const initials = name
    .split(/\s+/)
    .map((w) => w[0])
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return (
    <div className="sh-profile" ref={ref}>
      <button
        type="button"
        className="sh-profile__button"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="sh-avatar" aria-hidden="true">
          {initials}
        </span>
        <span className="sh-profile__name">{name}</span>
        <Icon name="chevron" size={16} />
      </button>
      {open && (
        <div className="sh-menu" role="menu" onClick={() => setOpen(false)}>
          {manager && (
            <Link role="menuitem" to="/setting">
              <Icon name="gear" size={18} /> Setting
            </Link>
          )}
          <Link role="menuitem" to="/updatePassword">
            <Icon name="key" size={18} /> Update Password
          </Link>
          <button type="button" role="menuitem" className="sh-menu__item" onClick={() => setAbout(true)}>
            <Icon name="info" size={18} /> About
          </button>
          <Link role="menuitem" to="/logout">
            <Icon name="logout" size={18} /> Logout
          </Link>
        </div>
      )}
      <AboutBox open={about} onClose={() => setAbout(false)} />
    </div>
  );
}
