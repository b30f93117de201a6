import { useState } from 'react';
import type { BillDetailsReply, CancelSaleReply, CancelSaleRequest } from '@bahi/contracts';
import { translateServerMessage, useTranslation } from '@bahi/i18n';
import { api, Button, errorMessage, isManager, Modal, TextAreaField, useUser } from '@bahi/ui-kit';

/**
 * "Cancel bill" on the bill view (managers). Shown disabled with the server's reason when the
 * bill can no longer be cancelled (a payment after it, a return); a reason and a confirmation
 * post /cancelSale. Gone once the bill is cancelled.
 */
export function CancelBill({ bill, onCancelled }: { bill: BillDetailsReply; onCancelled(): void }) {
  const user = useUser();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [sure, setSure] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { t } = useTranslation('sales');
  if (!isManager(user) || bill.cancelled || bill.status === 'Cancelled') return null;
  const allowed = bill.cancellable?.ok ?? true;
  const why = bill.cancellable?.reason ? translateServerMessage(bill.cancellable.reason) : null;
  const s = bill.saleDetails;

  const close = () => {
    if (pending) return;
    setOpen(false);
    setReason('');
    setSure(false);
    setError(null);
  };
  const confirm = async () => {
    if (!reason.trim() || !sure || pending) return;
    setPending(true);
    setError(null);
    try {
      const req: CancelSaleRequest = { saleId: s.sale_id, reason: reason.trim() };
      await api.post<CancelSaleReply>('/cancelSale', req);
      setOpen(false);
      onCancelled();
    } catch (err) {
      setError(translateServerMessage(errorMessage(err)));
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <span className="sl-cancel" title={allowed ? undefined : (why ?? undefined)}>
        <Button variant="danger" disabled={!allowed} onClick={() => setOpen(true)} data-testid="cancel-bill">
          {t('cancel.button')}
        </Button>
      </span>
      {!allowed && why && (
        <span className="sl-cancel__why" data-testid="cancel-bill-reason">
          {why}
        </span>
      )}
      <Modal
        open={open}
        title={t('cancel.title', { no: s.sale_id })}
        onClose={close}
        width={520}
        footer={
          <>
            <Button variant="ghost" onClick={close} disabled={pending}>
              {t('cancel.keep')}
            </Button>
            <Button variant="danger" onClick={() => void confirm()} disabled={!reason.trim() || !sure} busy={pending} data-testid="cancel-confirm">
              {t('cancel.button')}
            </Button>
          </>
        }
      >
        <p className="sl-cancel__lead">
          {s.walkIn ? t('cancel.leadWalkIn', { no: s.invoice_no ? ` (${s.invoice_no})` : '' }) : t('cancel.leadCustomer', { no: s.invoice_no ? ` (${s.invoice_no})` : '' })}
        </p>
        <TextAreaField
          label={t('cancel.reason')}
          rows={2}
          maxLength={200}
          placeholder={t('cancel.reasonPlaceholder')}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          data-testid="cancel-reason"
        />
        <label className="sl-cancel__sure">
          <input type="checkbox" checked={sure} onChange={(e) => setSure(e.target.checked)} data-testid="cancel-sure" /> {t('cancel.sure')}
        </label>
        {error && (
          <p className="bk-return__error" role="alert" data-testid="cancel-error">
            {error}
          </p>
        )}
      </Modal>
    </>
  );
}
