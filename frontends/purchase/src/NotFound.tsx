import { Link } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';

export function NotFound({ title, back = '/', backLabel }: { title?: string; back?: string; backLabel?: string }) {
  const { t } = useTranslation('purchase');
  return (
    <div className="bk-card bk-card__body">
      <h2>{title ?? t('common.notFound')}</h2>
      <Link className="pu-link" to={back}>
        {backLabel ?? t('common.home')}
      </Link>
    </div>
  );
}
