import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Card, SuggestInput, api, useAlert, type Suggestion } from '@bahi/ui-kit';
import type { ClientListRow, PaymentReply } from '@bahi/contracts';
import { DueSummary } from './DueSummary';
import { PaymentFields, usePartyDue, usePaymentSubmit } from './PaymentParts';
import { MIN_SEARCH, MSG, paymentError, todayISO } from './rules';

type Customer = Pick<ClientListRow, 'name' | 'mobile_no'> & { client_id: number };

const label = (c: Customer) => `${c.client_id} : ${c.name} ${c.mobile_no}`;

/** /payments/receivePayment: money received from a customer against their due (every position). */
export function ReceivePaymentPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const alert = useAlert();
  const [customer, setCustomer] = useState<Customer | null>(null);
  const { due, loading: loadingDue, load: loadPartyDue, clear: clearDue } = usePartyDue('/getClientDueAndDueDate');
  const [amount, setAmount] = useState('');
  const [nextDD, setNextDD] = useState(todayISO());
  const { busy, send } = usePaymentSubmit();

  const loadDue = (c: Customer) => loadPartyDue({ custId: c.client_id });

  const choose = (c: Customer) => {
    setCustomer(c);
    void loadDue(c);
  };

  // Opened from a customer's ledger with ?custId=.
  const preset = params.get('custId');
  useEffect(() => {
    if (!preset) return;
    api
      .get<{ data: Customer }>('/getClientsDetails', { query: { id: preset } })
      .then((r) => choose(r.data))
      .catch(() => {});
  }, [preset]);

  const suggest = async (text: string, signal: AbortSignal): Promise<Suggestion<Customer>[]> => {
    const rows = await api.get<Customer[]>('/getCustomerList/', { query: { text }, signal });
    return (Array.isArray(rows) ? rows : []).map((c) => ({ id: c.client_id, label: label(c), item: c }));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void send(
      paymentError(customer?.client_id ?? null, amount, nextDD, MSG.noCustomer),
      (key) => api.post<PaymentReply>('/salesDuePayment', { client_id: customer!.client_id, amount: amount.trim(), nextDD }, { headers: { 'Idempotency-Key': key } }),
      (r) => navigate(`/payments/receivePayment/${r.paymentId}`),
      (r) => !!r?.done && !!r.paymentId,
    );
  };

  return (
    <div className="pm-page">
      <div className="bk-page-title">
        <h1>Receive Payment</h1>
      </div>
      <Card title="Payment from a customer">
        <form onSubmit={submit} noValidate data-testid="receive-payment-form">
          <SuggestInput<Customer>
            testId="customer"
            label="Customer"
            placeholder="Type 3 letters of a name or mobile number"
            minChars={MIN_SEARCH}
            suggest={suggest}
            emptyText="No match"
            initialText={customer ? label(customer) : ''}
            onChoose={(s) => choose(s.item)}
            onClear={() => {
              setCustomer(null);
              clearDue();
            }}
            onInvalid={() => alert.error(MSG.invalidCustomer)}
          />
          <DueSummary due={due?.due ?? null} dueDate={due?.dueDate ?? null} loading={loadingDue} />
          <PaymentFields amount={amount} nextDD={nextDD} onAmount={setAmount} onNextDD={setNextDD} />
          <div className="pm-actions">
            <Button type="submit" busy={busy}>
              Receive Payment
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
