import type { BillDetailsReply } from '@bahi/contracts';
import './returns.css';
import { useTranslation } from '@bahi/i18n';
import { formatINR, NotePdfLink, ReturnStatusBadge } from '@bahi/ui-kit';

/** Above the bill: CANCELLED with its date and reason, or the return state and the bill's credit notes. */
export function BillReturns({ bill }: { bill: BillDetailsReply }) {
  const notes = bill.creditNotes ?? [];
  const { t } = useTranslation('sales');
  if (bill.cancelled || bill.status === 'Cancelled') {
    return (
      <div className="sl-cancelled" role="status" data-testid="bill-cancelled">
        <b>{t('returns.cancelled')}</b>
        {bill.cancelled && <span>{t('returns.cancelledOn', { date: bill.cancelled.date, reason: bill.cancelled.reason })}</span>}
      </div>
    );
  }
  if (!bill.status && notes.length === 0) return null;
  return (
    <div className="sl-notes" data-testid="bill-credit-notes">
      <ReturnStatusBadge status={bill.status} testId="bill-status" />
      {notes.map((n) => (
        <span key={n.creditNoteId} className="sl-notes__item" data-testid={`bill-credit-note-${n.creditNoteId}`}>
          {t('returns.creditNote')}{' '}
          <NotePdfLink kind="credit-note" id={n.creditNoteId}>
            {n.credit_note_no}
          </NotePdfLink>{' '}
          · {n.date} · {formatINR(n.amount)}
          {n.refund > 0 && <> {t('returns.refund', { amount: formatINR(n.refund) })}</>}
        </span>
      ))}
    </div>
  );
}
