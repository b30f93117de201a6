// A party's (customer's or distributor's) account: its details with the due, the figures on top
// and the transactions table. The sales and purchase remotes show the same ledger.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { HistoryReply, HistoryRow } from '@bahi/contracts';
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
  const columns = useMemo<Column<LedgerRow>[]>(
    () => [
      { key: 'date', header: 'Date' },
      { key: 'type', header: 'Transaction' },
      { key: 'ref', header: 'Reference', render: (r) => (r.ref === null ? '—' : (refLink(r) ?? `#${r.ref}`)) },
      { key: 'amount', header: 'Amount', align: 'right', render: (r) => formatINR(r.amount) },
      { key: 'paid', header: 'Paid', align: 'right', render: (r) => (r.paid ? formatINR(r.paid) : '—') },
      { key: 'balance', header: 'Balance', align: 'right', render: (r) => formatINR(r.balance) },
      { key: 'due_date', header: 'Due Date', render: (r) => r.due_date ?? '—' },
    ],
    [refLink],
  );
  return (
    <PagedTable<LedgerRow>
      title="Transactions"
      testId={testId}
      columns={columns}
      load={async (pageNo, signal) => {
        const r = await api.get<HistoryReply>(path, { query: { pageNo, id }, signal });
        return { rows: r.list as LedgerRow[], noOfPages: r.noOfPages };
      }}
      emptyText="No transactions yet."
      pageBase={pageBase}
    />
  );
}
