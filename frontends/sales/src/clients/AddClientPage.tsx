import { useNavigate } from 'react-router-dom';
import { Card, useAlert } from '@bahi/ui-kit';
import { CustomerForm } from './CustomerForm';

/** /clientList/add-client: a new customer, posted to the list's form action. */
export function AddClientPage() {
  const navigate = useNavigate();
  const alert = useAlert();
  return (
    <>
      <div className="bk-page-title">
        <h1>Add Customer</h1>
      </div>
      <Card title="Customer">
        <CustomerForm
          testId="add-client-form"
          createPath="/clientList/add-client"
          onSaved={(c) => {
            alert.success(`Customer ${c.name} added.`);
            navigate(`/clientList/transaction/${c.client_id}`);
          }}
          onCancel={() => navigate('/clientList')}
        />
      </Card>
    </>
  );
}
