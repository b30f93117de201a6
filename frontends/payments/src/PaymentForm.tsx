import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from '@bahi/i18n';
import { Button, Card, CASH_ONLY, PaymentModes, paymentsBody, SuggestInput, todayISO, useAlert, type Suggestion, type TenderRow } from '@bahi/ui-kit';
import type { PaymentLine, PaymentReply } from '@bahi/contracts';
import { DueSummary } from './DueSummary';
import { PaymentFields, usePartyDue, usePaymentSubmit } from './PaymentParts';
import { paymentError } from './rules';

/** What tells a Receive Payment form from a Give Payment one: the party, where its due comes from, where the payment goes. */
export interface PaymentFormProps<P> {
  title: string;
  cardTitle: string;
  formTestId: string;
  submitLabel: string;
  party: {
    testId: string;
    label: string;
    placeholder: string;
    minChars?: number;
    suggest(text: string, signal: AbortSignal): Promise<Suggestion<P>[]>;
    /** The text shown for a chosen party (a preset one is shown with it). */
    text(p: P): string;
    id(p: P): number;
    /** Alerts: nothing chosen; a typed text that is not one of the listed parties. */
    noneMessage: string;
    invalidMessage: string;
  };
  /** The due's path (`/getClientDueAndDueDate`) and its query for a party (`{ custId }`). */
  due: { path: string; query(p: P): Record<string, number> };
  /** A party chosen before the user types (opened from a ledger). */
  preset?: P | null;
  /** `payments`: the tenders (issue 28); undefined for plain cash, so the spec's body is sent unchanged. */
  post(p: P, amount: string, nextDD: string, idempotencyKey: string, payments: PaymentLine[] | undefined): Promise<PaymentReply>;
  /** After a payment is done; `reloadDue` shows the party's new due. */
  onDone(r: PaymentReply, reloadDue: () => Promise<void>): void | Promise<void>;
  /** Whether a reply counts as done (default: `done`). */
  accepted?(r: PaymentReply): boolean;
}

/** The payment form of both directions: choose the party, see its due, enter amount and next due date, send once. */
export function PaymentForm<P>(props: PaymentFormProps<P>) {
  const { party } = props;
  const alert = useAlert();
  const { t } = useTranslation('payments');
  const [chosen, setChosen] = useState<P | null>(null);
  const { due, loading, load, clear } = usePartyDue(props.due.path);
  const [amount, setAmount] = useState('');
  const [nextDD, setNextDD] = useState(todayISO());
  const [tenders, setTenders] = useState<TenderRow[]>(CASH_ONLY);
  const { busy, send } = usePaymentSubmit();

  const choose = (p: P) => {
    setChosen(p);
    void load(props.due.query(p));
  };

  useEffect(() => {
    if (props.preset) choose(props.preset);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new preset chooses again
  }, [props.preset]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void send(
      paymentError(chosen === null ? null : party.id(chosen), amount, nextDD, party.noneMessage),
      (key) => props.post(chosen!, amount.trim(), nextDD, key, paymentsBody(tenders, amount)),
      async (r) => {
        setAmount('');
        setTenders(CASH_ONLY);
        await props.onDone(r, () => load(props.due.query(chosen!)));
      },
      props.accepted,
    );
  };

  return (
    <div className="pm-page">
      <div className="bk-page-title">
        <h1>{props.title}</h1>
      </div>
      <Card title={props.cardTitle}>
        <form onSubmit={submit} noValidate data-testid={props.formTestId}>
          <SuggestInput<P>
            testId={party.testId}
            label={party.label}
            placeholder={party.placeholder}
            minChars={party.minChars}
            suggest={party.suggest}
            emptyText={t('form.noMatch')}
            initialText={props.preset ? party.text(props.preset) : ''}
            onChoose={(s) => choose(s.item)}
            onClear={() => {
              setChosen(null);
              clear();
            }}
            onInvalid={() => alert.error(party.invalidMessage)}
          />
          <DueSummary due={due?.due ?? null} dueDate={due?.dueDate ?? null} loading={loading} />
          <PaymentFields amount={amount} nextDD={nextDD} onAmount={setAmount} onNextDD={setNextDD} />
          <PaymentModes rows={tenders} onChange={setTenders} />
          <div className="pm-actions">
            <Button type="submit" busy={busy}>
              {props.submitLabel}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
