import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { LANGUAGE_NAMES, LANGUAGES, setLanguage, useLanguage, useTranslation, type Language } from '@bahi/i18n';
import { useAlert } from '@bahi/ui-kit';
import { AboutBox } from './AboutBox';
import { Icon } from './Icon';

/** The user's name with a menu: Logout, Update Password (the platform admin's too), the language and, for managers, Setting. */
export function ProfileMenu({ name, manager }: { name: string; manager: boolean; admin?: boolean }) {
  const { t } = useTranslation('shell');
  const language = useLanguage();
  const alert = useAlert();
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
  // Every open screen re-renders in the new language at once; the server remembers it for next time.
  const choose = (lng: Language) => {
    if (lng === language) return;
    setLanguage(lng).catch(() => alert.error(t('menu.languageSaveFailed')));
  };
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
              <Icon name="gear" size={18} /> {t('menu.setting')}
            </Link>
          )}
          <Link role="menuitem" to="/updatePassword">
            <Icon name="key" size={18} /> {t('menu.updatePassword')}
          </Link>
          <div className="sh-menu__language" role="group" aria-label={t('menu.language')} data-testid="language-switch">
            <span className="sh-menu__label">
              <Icon name="globe" size={18} /> {t('menu.language')}
            </span>
            <span className="sh-menu__choices">
              {LANGUAGES.map((lng) => (
                <button
                  key={lng}
                  type="button"
                  role="menuitemradio"
                  aria-checked={lng === language}
                  lang={lng}
                  className={lng === language ? 'sh-menu__choice is-active' : 'sh-menu__choice'}
                  data-testid={`language-${lng}`}
                  onClick={() => choose(lng)}
                >
                  {LANGUAGE_NAMES[lng]}
                </button>
              ))}
            </span>
          </div>
          <button type="button" role="menuitem" className="sh-menu__item" onClick={() => setAbout(true)}>
            <Icon name="info" size={18} /> {t('menu.about')}
          </button>
          <Link role="menuitem" to="/logout">
            <Icon name="logout" size={18} /> {t('menu.logout')}
          </Link>
        </div>
      )}
      <AboutBox open={about} onClose={() => setAbout(false)} />
    </div>
  );
}
