import './i18n';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { Button, Card } from '@bahi/ui-kit';
import './purchase.css';

/** /purchaseProducts: purchases are made from the cart's 'Proceed to purchase' panel; this points there. */
export default function PurchaseProductsArea() {
  const navigate = useNavigate();
  const { t } = useTranslation('purchase');
  return (
    <Card title={t('products.title')}>
      <p className="bk-muted">{t('products.help')}</p>
      <div className="pu-actions">
        <Button onClick={() => navigate('/')}>{t('products.goCart')}</Button>
        <Button variant="secondary" onClick={() => navigate('/purchaseList')}>
          {t('common.purchaseAccount')}
        </Button>
      </div>
    </Card>
  );
}
