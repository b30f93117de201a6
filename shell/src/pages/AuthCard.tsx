import type { ReactNode } from 'react';
import { useTranslation } from '@bahi/i18n';

/** The centred card used by the pages outside the shell (login). */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const { t } = useTranslation('shell');
  return (
    <div className="sh-auth">
      <div className="sh-auth__card">
        <div className="sh-auth__brand">
          <span className="sh-brand__mark">ब</span>
          <span>{t('brand.name')}</span>
        </div>
        <h1>{title}</h1>
        {subtitle && <p className="bk-muted">{subtitle}</p>}
        {children}
      </div>
      <footer className="sh-footer sh-footer--auth">{t('footer', { year: String(new Date().getFullYear()) })}</footer>
    </div>
  );
}
