import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { api } from '@bahi/ui-kit';
import type { ClientListRow, PaymentReply } from '@bahi/contracts';
import { PaymentForm } from './PaymentForm';
import { MIN_SEARCH, MSG } from './rules';

type Customer = Pick<ClientListRow, 'name' | 'mobile_no'> & { client_id: number };

const label = (c: Customer) => `${c.client_id} : ${c.name} ${c.mobile_no}`;

/** /payments/receivePayment: money received from a customer against their due (every position). */
export function ReceivePaymentPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { t } = useTranslation('payments');
  const [preset, setPreset] = useState<Customer | null>(null);

  // Opened from a customer's ledger with ?custId=.
  const custId = params.get('custId');
  useEffect(() => {
    if (!custId) return;
    api
      .get<{ data: Customer }>('/getClientsDetails', { query: { id: custId } })
      .then((r) => setPreset(r.data))
      .catch(() => {});
  }, [custId]);

  return (
    <PaymentForm<Customer>
      title={t('receive.title')}
      cardTitle={t('receive.card')}
      formTestId="receive-payment-form"
      submitLabel={t('receive.submit')}
      party={{
        testId: 'customer',
        label: t('receive.party'),
        placeholder: t('receive.placeholder'),
        minChars: MIN_SEARCH,
        suggest: async (text, signal) => {
          const rows = await api.get<Customer[]>('/getCustomerList/', { query: { text }, signal });
          return (Array.isArray(rows) ? rows : []).map((c) => ({ id: c.client_id, label: label(c), item: c }));
        },
        text: label,
        id: (c) => c.client_id,
        noneMessage: MSG.noCustomer,
        invalidMessage: MSG.invalidCustomer,
      }}
      due={{ path: '/getClientDueAndDueDate', query: (c) => ({ custId: c.client_id }) }}
      preset={preset}
      post={(c, amount, nextDD, key, payments) => api.post<PaymentReply>('/salesDuePayment', { client_id: c.client_id, amount, nextDD, ...(payments ? { payments } : {}) }, { headers: { 'Idempotency-Key': key } })}
      onDone={(r) => navigate(`/payments/receivePayment/${r.paymentId}`)}
      accepted={(r) => !!r?.done && !!r.paymentId}
    />
  );
}
