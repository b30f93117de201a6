import { useNavigate } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { Card, useAlert } from '@bahi/ui-kit';
import { CustomerForm } from './CustomerForm';

/** /clientList/add-client: a new customer, posted to the list's form action. */
export function AddClientPage() {
  const navigate = useNavigate();
  const alert = useAlert();
  const { t } = useTranslation('sales');
  return (
    <>
      <div className="bk-page-title">
        <h1>{t('customer.add')}</h1>
      </div>
      <Card title={t('clients.customer')}>
        <CustomerForm
          testId="add-client-form"
          createPath="/clientList/add-client"
          onSaved={(c) => {
            alert.success(t('clients.added', { name: c.name }));
            navigate(`/clientList/transaction/${c.client_id}`);
          }}
          onCancel={() => navigate('/clientList')}
        />
      </Card>
    </>
  );
}
