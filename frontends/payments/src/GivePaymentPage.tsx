import { useEffect, useState, type FormEvent } from 'react';
import { Button, Card, SuggestInput, api, isManager, useAlert, useUser, type Suggestion } from '@bahi/ui-kit';
import type { GetAllDistributorsListReply, PaymentReply } from '@bahi/contracts';
import { DueSummary } from './DueSummary';
import { PaymentFields, usePartyDue, usePaymentSubmit } from './PaymentParts';
import { MSG, paymentError, todayISO } from './rules';

type Distributor = GetAllDistributorsListReply['allDistributorsList'][number];

const label = (d: Distributor) => `${d.distributor_id} : ${d.name}`;

/** /payments/givePayment: money paid to a distributor against what we owe (managers). */
export function GivePaymentPage() {
  const user = useUser();
  const alert = useAlert();
  const [all, setAll] = useState<Distributor[] | null>(null);
  const [dist, setDist] = useState<Distributor | null>(null);
  const { due, loading: loadingDue, load: loadPartyDue, clear: clearDue } = usePartyDue('/getDueAndDueDate');
  const [amount, setAmount] = useState('');
  const [nextDD, setNextDD] = useState(todayISO());
  const { busy, send } = usePaymentSubmit();
  const manager = isManager(user);

  useEffect(() => {
    if (!manager) return;
    api
      .get<GetAllDistributorsListReply>('/getAllDistributorsList')
      .then((r) => setAll(r.allDistributorsList))
      .catch(() => alert.error('unable to connet to server'));
  }, [manager, alert]);

  const loadDue = (d: Distributor) => loadPartyDue({ distId: d.distributor_id });

  if (!manager) {
    return (
      <div className="bk-card bk-card__body">
        <h2>Give Payment</h2>
        <p className="bk-muted">Only a manager can give payments to distributors.</p>
      </div>
    );
  }

  const suggest = async (text: string): Promise<Suggestion<Distributor>[]> => {
    const t = text.toLowerCase();
    return (all ?? []).filter((d) => label(d).toLowerCase().includes(t)).map((d) => ({ id: d.distributor_id, label: label(d), item: d }));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void send(
      paymentError(dist?.distributor_id ?? null, amount, nextDD, MSG.noDistributor),
      (key) => api.post<PaymentReply>('/purchaseDuePaymentReact', { distributorId: dist!.distributor_id, amount: amount.trim(), nextDD }, { headers: { 'Idempotency-Key': key } }),
      async () => {
        setAmount('');
        await loadDue(dist!);
      },
    );
  };

  return (
    <div className="pm-page">
      <div className="bk-page-title">
        <h1>Give Payment</h1>
      </div>
      <Card title="Payment to a distributor">
        <form onSubmit={submit} noValidate data-testid="give-payment-form">
          <SuggestInput<Distributor>
            testId="distributor"
            label="Distributor"
            placeholder={all === null ? 'Loading distributors…' : 'Choose a distributor from the list'}
            suggest={suggest}
            emptyText="No match"
            onChoose={(s) => {
              setDist(s.item);
              void loadDue(s.item);
            }}
            onClear={() => {
              setDist(null);
              clearDue();
            }}
            onInvalid={() => alert.error(MSG.noDistributor)}
          />
          <DueSummary due={due?.due ?? null} dueDate={due?.dueDate ?? null} loading={loadingDue} />
          <PaymentFields amount={amount} nextDD={nextDD} onAmount={setAmount} onNextDD={setNextDD} />
          <div className="pm-actions">
            <Button type="submit" busy={busy}>
              Give Payment
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
