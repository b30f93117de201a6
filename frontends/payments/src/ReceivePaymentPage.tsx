import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError, Button, Card, Field, SuggestInput, api, errorMessage, useAlert, type Suggestion } from '@bahi/ui-kit';
import type { ClientListRow, DueAndDueDateReply, PaymentReply } from '@bahi/contracts';
import { DueSummary } from './DueSummary';
import { MIN_SEARCH, MSG, paymentError, todayISO } from './rules';

type Customer = Pick<ClientListRow, 'name' | 'mobile_no'> & { client_id: number };
type Due = DueAndDueDateReply;

const label = (c: Customer) => `${c.client_id} : ${c.name} ${c.mobile_no}`;

/** /payments/receivePayment: money received from a customer against their due (every position). */
export function ReceivePaymentPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const alert = useAlert();
  const [customer, setCustomer] = useState<Customer | null>(null);
  const [due, setDue] = useState<Due | null>(null);
  const [loadingDue, setLoadingDue] = useState(false);
  const [amount, setAmount] = useState('');
  const [nextDD, setNextDD] = useState(todayISO());
  const [busy, setBusy] = useState(false);

  const loadDue = async (c: Customer) => {
    setLoadingDue(true);
    try {
      setDue(await api.get<Due>('/getClientDueAndDueDate', { query: { custId: c.client_id } }));
    } catch (err) {
      alert.error(errorMessage(err));
    } finally {
      setLoadingDue(false);
    }
  };

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

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = paymentError(customer?.client_id ?? null, amount, nextDD, MSG.noCustomer);
    if (problem) return alert.error(problem);
    setBusy(true);
    try {
      const r = await api.post<PaymentReply>('/salesDuePayment', { client_id: customer!.client_id, amount: amount.trim(), nextDD });
      if (!r?.done || !r.paymentId) return alert.error(r?.err || 'Unable to process the request please contact support.');
      alert.success(MSG.done);
      navigate(`/payments/receivePayment/${r.paymentId}`);
    } catch (err) {
      const body = err instanceof ApiError ? (err.body as { err?: string } | undefined) : undefined;
      alert.error(body?.err || errorMessage(err));
    } finally {
      setBusy(false);
    }
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
              setDue(null);
            }}
            onInvalid={() => alert.error(MSG.invalidCustomer)}
          />
          <DueSummary due={due?.due ?? null} dueDate={due?.dueDate ?? null} loading={loadingDue} />
          <div className="pm-grid">
            <Field label="Amount (₹)" name="amount" inputMode="decimal" required value={amount} onChange={(e) => setAmount(e.target.value)} placeholder="0.00" />
            <Field label="Next Due Date" name="nextDD" type="date" required value={nextDD} onChange={(e) => setNextDD(e.target.value)} />
          </div>
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
