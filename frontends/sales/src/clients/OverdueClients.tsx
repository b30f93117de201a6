import { useState } from 'react';
import type { CreateShareReply, CustomersRemindedReply, OverdueClientRow, ShareLang } from '@bahi/contracts';
import { i18n, useTranslation } from '@bahi/i18n';
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
  if (!iso) return i18n.t('sales:overdue.never');
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
  const { t } = useTranslation('sales');

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
      alert.success(t('overdue.opened', { name: r.name }));
      setVersion((v) => v + 1);
    } catch (err) {
      tab.close();
      alert.error(errorMessage(err, t('overdue.failedOne')));
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
      alert.error(errorMessage(err, t('overdue.failedMany')));
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
          aria-label={t('overdue.select', { name: r.name })}
          checked={selected.has(r.id)}
          onClick={(e) => e.stopPropagation()}
          onChange={() => toggle(r)}
          data-testid={`overdue-pick-${r.id}`}
        />
      ),
    },
    { key: 'id', header: t('clients.id') },
    { key: 'name', header: t('customerForm.name') },
    { key: 'mobile_no', header: t('customerForm.mobile') },
    { key: 'due', header: t('summary.due'), align: 'right', render: (r) => formatINR(r.due) },
    { key: 'due_date', header: t('sell.dueDate'), render: (r) => ddmmyyyy(r.due_date) },
    {
      key: 'days_overdue',
      header: t('overdue.days'),
      align: 'right',
      render: (r) => <b className="cl-overdue__days">{r.days_overdue}</b>,
    },
    {
      key: 'last_reminded_at',
      header: t('overdue.lastReminded'),
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
            {t('overdue.remind')}
          </Button>
        </span>
      ),
    },
  ];

  return (
    <>
      <PagedTable<Row>
        title={t('overdue.title')}
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
              aria-label={t('overdue.language')}
              value={lang}
              onChange={(e) => setLang(e.target.value as ShareLang)}
              data-testid="overdue-lang"
            >
              <option value="en">{t('overdue.english')}</option>
              <option value="hi">{t('overdue.hindi')}</option>
            </select>
            <Button
              disabled={selected.size === 0}
              busy={busy === 'all'}
              onClick={() => void remindSelected()}
              data-testid="overdue-remind-selected"
            >
              {t('overdue.remindSelected', { count: selected.size })}
            </Button>
          </span>
        }
        emptyText={t('overdue.empty')}
      />
      <Modal open={sent !== null} title={t('overdue.toSend')} onClose={() => setSent(null)} width={640}>
        <p className="cl-overdue__hint">
          {t('overdue.hint')}
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
                  {t('overdue.openWhatsApp')}
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
