// What the receive and give payment forms share: the chosen party's due, the amount and next due
// date boxes, and the message of a refused payment.
import { useRef, useState } from 'react';
import type { DueAndDueDateReply, PaymentReply } from '@bahi/contracts';
import { translateServerMessage, useTranslation } from '@bahi/i18n';
import { ApiError, DEFAULT_ERROR, Field, api, errorMessage, newIdempotencyKey, useAlert } from '@bahi/ui-kit';
import { MSG } from './rules';

/** The due of the chosen party: `load(query)` asks `path` (`{ custId }` or `{ distId }`), `clear()` forgets it. */
export function usePartyDue(path: string) {
  const alert = useAlert();
  const [due, setDue] = useState<DueAndDueDateReply | null>(null);
  const [loading, setLoading] = useState(false);
  const load = async (query: Record<string, number>) => {
    setLoading(true);
    try {
      setDue(await api.get<DueAndDueDateReply>(path, { query }));
    } catch (err) {
      alert.error(errorMessage(err));
    } finally {
      setLoading(false);
    }
  };
  return { due, loading, load, clear: () => setDue(null) };
}

/** Amount and next due date, side by side. */
export function PaymentFields({ amount, nextDD, onAmount, onNextDD }: { amount: string; nextDD: string; onAmount(v: string): void; onNextDD(v: string): void }) {
  const { t } = useTranslation('payments');
  return (
    <div className="pm-grid">
      <Field label={t('form.amount')} name="amount" inputMode="decimal" required value={amount} onChange={(e) => onAmount(e.target.value)} placeholder="0.00" />
      <Field label={t('form.nextDue')} name="nextDD" type="date" required value={nextDD} onChange={(e) => onNextDD(e.target.value)} />
    </div>
  );
}

/** The server's own reason (`err` of a 4xx body) when it gave one. */
export function paymentFailure(err: unknown): string {
  const body = err instanceof ApiError ? (err.body as { err?: string } | undefined) : undefined;
  return body?.err ? translateServerMessage(body.err) : errorMessage(err);
}

/**
 * Sends a payment: alerts the form's `problem` instead when there is one; a reply that `accepted`
 * refuses shows its `err`; a done one says so and goes on with `onDone`. `post` gets the
 * payment's idempotency key: kept while the outcome is unknown (no answer, 5xx), so sending again
 * cannot pay twice; renewed once the server has answered.
 */
export function usePaymentSubmit() {
  const alert = useAlert();
  const [busy, setBusy] = useState(false);
  const key = useRef(newIdempotencyKey());
  const send = async (
    problem: string | null,
    post: (idempotencyKey: string) => Promise<PaymentReply>,
    onDone: (r: PaymentReply) => void | Promise<void>,
    accepted: (r: PaymentReply) => boolean = (r) => !!r?.done,
  ) => {
    if (problem) return alert.error(problem);
    setBusy(true);
    try {
      const r = await post(key.current);
      key.current = newIdempotencyKey();
      if (!accepted(r)) return alert.error(translateServerMessage(r?.err || DEFAULT_ERROR));
      alert.success(MSG.done);
      await onDone(r);
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) key.current = newIdempotencyKey();
      alert.error(paymentFailure(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, send };
}
