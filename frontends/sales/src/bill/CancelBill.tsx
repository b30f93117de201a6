import { useState } from 'react';
import type { BillDetailsReply, CancelSaleReply, CancelSaleRequest } from '@bahi/contracts';
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
  if (!isManager(user) || bill.cancelled || bill.status === 'Cancelled') return null;
  const allowed = bill.cancellable?.ok ?? true;
  const why = bill.cancellable?.reason ?? null;
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
      setError(errorMessage(err));
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <span className="sl-cancel" title={allowed ? undefined : (why ?? undefined)}>
        <Button variant="danger" disabled={!allowed} onClick={() => setOpen(true)} data-testid="cancel-bill">
          Cancel bill
        </Button>
      </span>
      {!allowed && why && (
        <span className="sl-cancel__why" data-testid="cancel-bill-reason">
          {why}
        </span>
      )}
      <Modal
        open={open}
        title={`Cancel bill #${s.sale_id}`}
        onClose={close}
        width={520}
        footer={
          <>
            <Button variant="ghost" onClick={close} disabled={pending}>
              Keep the bill
            </Button>
            <Button variant="danger" onClick={() => void confirm()} disabled={!reason.trim() || !sure} busy={pending} data-testid="cancel-confirm">
              Cancel bill
            </Button>
          </>
        }
      >
        <p className="sl-cancel__lead">
          The goods go back into stock and {s.walkIn ? 'the sale' : "the customer's due"} is reversed. The bill keeps its number
          {s.invoice_no ? ` (${s.invoice_no})` : ''} and shows CANCELLED. This cannot be undone.
        </p>
        <TextAreaField
          label="Reason"
          rows={2}
          maxLength={200}
          placeholder="Billed by mistake…"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          data-testid="cancel-reason"
        />
        <label className="sl-cancel__sure">
          <input type="checkbox" checked={sure} onChange={(e) => setSure(e.target.checked)} data-testid="cancel-sure" /> Yes, cancel this bill
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
