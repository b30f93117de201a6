// A party's (customer's or distributor's) account: its details with the due, the figures on top
// and the transactions table. The sales and purchase remotes show the same ledger.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { HistoryReply, HistoryRow } from '@bahi/contracts';
import { useTranslation } from '@bahi/i18n';
import { api, errorMessage } from './api';
import { useAlert } from './alert';
import { formatINR } from './format';
import { PagedTable, type Column } from './PagedTable';
import type { PageBase } from './paging';

export interface Stat {
  label: string;
  value: ReactNode;
  /** Shown in the danger colour (a due above zero). */
  due?: boolean;
  /** A long text value in a smaller size. */
  small?: boolean;
  testId?: string;
}

/** Labelled figures side by side (total due, due date, ...). */
export function StatCards({ stats, className = 'bk-stats', testId }: { stats: Stat[]; className?: string; testId?: string }) {
  return (
    <div className={className} data-testid={testId}>
      {stats.map((s) => (
        <div className="bk-stat" key={s.label}>
          <span className="bk-stat__label">{s.label}</span>
          <span className={`bk-stat__value${s.due ? ' bk-stat__value--due' : ''}${s.small ? ' bk-stat__value--small' : ''}`} data-testid={s.testId}>
            {s.value}
          </span>
        </div>
      ))}
    </div>
  );
}

/** Loads a party's details (`GET path?id=`, reply `{ data }`); `failed` once the load failed (the error is alerted). */
export function usePartyDetails<T>(path: string, id: string | undefined) {
  const alert = useAlert();
  const [details, setDetails] = useState<T | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    api
      .get<{ data: T }>(path, { query: { id } })
      .then((r) => setDetails(r.data))
      .catch((err) => {
        setFailed(true);
        alert.error(errorMessage(err));
      });
  }, [path, id, alert]);
  return { details, setDetails, failed };
}

type LedgerRow = HistoryRow & Record<string, unknown>;

export interface PartyHistoryProps {
  /** `GET path?pageNo&id` answering a HistoryReply. */
  path: string;
  id: string | undefined;
  testId: string;
  /** The reference as a link where the row leads somewhere (hide_link); null shows `#ref`. */
  refLink(row: HistoryRow): ReactNode | null;
  /** Page numbering (PagedTable pageBase): 0 for a distributor (back office), 1 for a customer (sales side). */
  pageBase?: PageBase;
}

/** The party's transactions, newest first, paged. */
export function PartyHistoryTable({ path, id, testId, refLink, pageBase }: PartyHistoryProps) {
  const { t } = useTranslation('ui');
  const columns = useMemo<Column<LedgerRow>[]>(() => {
    // The ledger's entry types (HistoryRow.type) in the screen's language; anything newer as sent.
    const typeLabel = (type: string): string => {
      switch (type) {
        case 'Opening Balance':
          return t('party.types.opening');
        case 'Sale':
          return t('party.types.sale');
        case 'Purchase':
          return t('party.types.purchase');
        case 'Payment Received':
          return t('party.types.paymentReceived');
        case 'Payment Given':
          return t('party.types.paymentGiven');
        case 'Reversal':
          return t('party.types.reversal');
        case 'Credit Note':
          return t('party.types.creditNote');
        case 'Debit Note':
          return t('party.types.debitNote');
        case 'Sale Cancelled':
          return t('party.types.saleCancelled');
        default:
          return type;
      }
    };
    return [
      { key: 'date', header: t('party.date') },
      { key: 'type', header: t('party.transaction'), render: (r) => typeLabel(r.type) },
      { key: 'ref', header: t('party.reference'), render: (r) => (r.ref === null ? '—' : (refLink(r) ?? `#${r.ref}`)) },
      { key: 'amount', header: t('party.amount'), align: 'right', render: (r) => formatINR(r.amount) },
      { key: 'paid', header: t('party.paid'), align: 'right', render: (r) => (r.paid ? formatINR(r.paid) : '—') },
      { key: 'balance', header: t('party.balance'), align: 'right', render: (r) => formatINR(r.balance) },
      { key: 'due_date', header: t('party.dueDate'), render: (r) => r.due_date ?? '—' },
    ];
  }, [refLink, t]);
  return (
    <PagedTable<LedgerRow>
      title={t('party.transactions')}
      testId={testId}
      columns={columns}
      load={async (pageNo, signal) => {
        const r = await api.get<HistoryReply>(path, { query: { pageNo, id }, signal });
        return { rows: r.list as LedgerRow[], noOfPages: r.noOfPages };
      }}
      emptyText={t('party.noTransactions')}
      pageBase={pageBase}
    />
  );
}
