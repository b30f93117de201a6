import { useState } from 'react';
import type { CreateShareReply, CustomersRemindedReply, OverdueClientRow, ShareLang } from '@bahi/contracts';
import { api, Button, errorMessage, formatINR, Modal, openTab, PagedTable, useAlert, type Column } from '@bahi/ui-kit';
import './reminders.css';

type Row = OverdueClientRow & Record<string, unknown>;

interface Sent {
  id: number;
  name: string;
  message: string;
  waUrl: string;
  url: string;
}

/** DD-MM-YYYY */
const ddmmyyyy = (d: string) => d.split('-').reverse().join('-');

function reminded(iso: string | null): string {
  if (!iso) return 'Never';
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getDate())}-${p(d.getMonth() + 1)}-${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** A statement link with the reminder message for one customer. */
const reminderFor = (id: number, lang: ShareLang) =>
  api.post<CreateShareReply>('/share', { kind: 'statement', id, lang, template: 'reminder' });

/**
 * The customer list's Overdue filter: customers past their due date, most days overdue first,
 * with Remind per row (WhatsApp opens with the reminder and a statement link) and for the
 * selected rows (their messages listed to send one by one). Each reminder is recorded.
 */
export function OverdueClients() {
  const alert = useAlert();
  const [selected, setSelected] = useState<Map<number, string>>(new Map());
  const [lang, setLang] = useState<ShareLang>('en');
  const [version, setVersion] = useState(0);
  const [busy, setBusy] = useState<number | 'all' | null>(null);
  const [sent, setSent] = useState<Sent[] | null>(null);

  const toggle = (r: Row) =>
    setSelected((prev) => {
      const next = new Map(prev);
      if (next.has(r.id)) next.delete(r.id);
      else next.set(r.id, r.name);
      return next;
    });

  const remindOne = async (r: Row) => {
    const tab = openTab();
    setBusy(r.id);
    try {
      const link = await reminderFor(r.id, lang);
      tab.go(link.waUrl);
      await api.post<CustomersRemindedReply>('/customers/reminded', { clientIds: [r.id] });
      alert.success(`Reminder for ${r.name} opened in WhatsApp.`);
      setVersion((v) => v + 1);
    } catch (err) {
      tab.close();
      alert.error(errorMessage(err, 'Unable to make the reminder, please try again later.'));
    } finally {
      setBusy(null);
    }
  };

  const remindSelected = async () => {
    setBusy('all');
    try {
      const out: Sent[] = [];
      for (const [id, name] of selected) {
        const link = await reminderFor(id, lang);
        out.push({ id, name, message: link.message, waUrl: link.waUrl, url: link.url });
      }
      await api.post<CustomersRemindedReply>('/customers/reminded', { clientIds: out.map((s) => s.id) });
      setSent(out);
      setSelected(new Map());
      setVersion((v) => v + 1);
    } catch (err) {
      alert.error(errorMessage(err, 'Unable to make the reminders, please try again later.'));
    } finally {
      setBusy(null);
    }
  };

  const columns: Column<Row>[] = [
    {
      key: 'pick',
      header: '',
      render: (r) => (
        <input
          type="checkbox"
          aria-label={`Select ${r.name}`}
          checked={selected.has(r.id)}
          onClick={(e) => e.stopPropagation()}
          onChange={() => toggle(r)}
          data-testid={`overdue-pick-${r.id}`}
        />
      ),
    },
    { key: 'id', header: 'ID' },
    { key: 'name', header: 'Name' },
    { key: 'mobile_no', header: 'Mobile' },
    { key: 'due', header: 'Due', align: 'right', render: (r) => formatINR(r.due) },
    { key: 'due_date', header: 'Due date', render: (r) => ddmmyyyy(r.due_date) },
    {
      key: 'days_overdue',
      header: 'Days overdue',
      align: 'right',
      render: (r) => <b className="cl-overdue__days">{r.days_overdue}</b>,
    },
    {
      key: 'last_reminded_at',
      header: 'Last reminded',
      render: (r) => <span data-testid={`overdue-reminded-${r.id}`}>{reminded(r.last_reminded_at)}</span>,
    },
    {
      key: 'remind',
      header: '',
      align: 'right',
      render: (r) => (
        <span onClick={(e) => e.stopPropagation()}>
          <Button
            variant="secondary"
            busy={busy === r.id}
            onClick={() => void remindOne(r)}
            data-testid={`overdue-remind-${r.id}`}
          >
            Remind
          </Button>
        </span>
      ),
    },
  ];

  return (
    <>
      <PagedTable<Row>
        title="Overdue customers"
        testId="overdue-table"
        columns={columns}
        rowUrl="/clientList/transaction"
        deps={[version]}
        load={async (pageNo, signal) => {
          const r = await api.get<{ clientsList: Row[]; noOfPages: number }>('/getClientsList', {
            query: { overdue: 1, pageNo },
            signal,
          });
          return { rows: r.clientsList, noOfPages: r.noOfPages };
        }}
        actions={
          <span className="cl-overdue__actions">
            <select
              aria-label="Message language"
              value={lang}
              onChange={(e) => setLang(e.target.value as ShareLang)}
              data-testid="overdue-lang"
            >
              <option value="en">English</option>
              <option value="hi">हिन्दी</option>
            </select>
            <Button
              disabled={selected.size === 0}
              busy={busy === 'all'}
              onClick={() => void remindSelected()}
              data-testid="overdue-remind-selected"
            >
              Remind selected ({selected.size})
            </Button>
          </span>
        }
        emptyText="No customer is past a due date."
      />
      <Modal open={sent !== null} title="Reminders to send" onClose={() => setSent(null)} width={640}>
        <p className="cl-overdue__hint">
          Send each one: Open WhatsApp sends that customer's message with their statement link.
        </p>
        <ol className="cl-overdue__sent" data-testid="overdue-sent">
          {(sent ?? []).map((s) => (
            <li key={s.id}>
              <div className="cl-overdue__sent-head">
                <b>{s.name}</b>
                <a
                  className="bk-btn bk-btn--primary"
                  href={s.waUrl}
                  target="_blank"
                  rel="noreferrer noopener"
                  data-testid={`overdue-wa-${s.id}`}
                >
                  Open WhatsApp
                </a>
              </div>
              <div className="cl-overdue__message">{s.message}</div>
            </li>
          ))}
        </ol>
      </Modal>
    </>
  );
}
