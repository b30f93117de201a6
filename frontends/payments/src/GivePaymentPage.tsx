import { useEffect, useState } from 'react';
import { useTranslation } from '@bahi/i18n';
import { api, isManager, useAlert, useUser } from '@bahi/ui-kit';
import type { GetAllDistributorsListReply, PaymentReply } from '@bahi/contracts';
import { PaymentForm } from './PaymentForm';
import { MSG } from './rules';

type Distributor = GetAllDistributorsListReply['allDistributorsList'][number];

const label = (d: Distributor) => `${d.distributor_id} : ${d.name}`;

/** /payments/givePayment: money paid to a distributor against what we owe (managers). */
export function GivePaymentPage() {
  const user = useUser();
  const alert = useAlert();
  const { t } = useTranslation('payments');
  const [all, setAll] = useState<Distributor[] | null>(null);
  const manager = isManager(user);

  useEffect(() => {
    if (!manager) return;
    api
      .get<GetAllDistributorsListReply>('/getAllDistributorsList')
      .then((r) => setAll(r.allDistributorsList))
      .catch(() => alert.error(t('connectFailed')));
  }, [manager, alert, t]);

  if (!manager) {
    return (
      <div className="bk-card bk-card__body">
        <h2>{t('give.title')}</h2>
        <p className="bk-muted">{t('give.managerOnly')}</p>
      </div>
    );
  }

  return (
    <PaymentForm<Distributor>
      title={t('give.title')}
      cardTitle={t('give.card')}
      formTestId="give-payment-form"
      submitLabel={t('give.submit')}
      party={{
        testId: 'distributor',
        label: t('give.party'),
        placeholder: all === null ? t('give.loading') : t('give.choose'),
        // The whole list is loaded once: a company has few distributors.
        suggest: async (text) => {
          const t = text.toLowerCase();
          return (all ?? []).filter((d) => label(d).toLowerCase().includes(t)).map((d) => ({ id: d.distributor_id, label: label(d), item: d }));
        },
        text: label,
        id: (d) => d.distributor_id,
        noneMessage: MSG.noDistributor,
        invalidMessage: MSG.noDistributor,
      }}
      due={{ path: '/getDueAndDueDate', query: (d) => ({ distId: d.distributor_id }) }}
      post={(d, amount, nextDD, key, payments) => api.post<PaymentReply>('/purchaseDuePaymentReact', { distributorId: d.distributor_id, amount, nextDD, ...(payments ? { payments } : {}) }, { headers: { 'Idempotency-Key': key } })}
      onDone={(_r, reloadDue) => reloadDue()}
    />
  );
}
