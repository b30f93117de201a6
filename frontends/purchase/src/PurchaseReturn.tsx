import { useMemo, useState } from 'react';
import { i18n, useTranslation } from '@bahi/i18n';
import type { GetPurchaseDetailsReply, PurchaseReturnReply, PurchaseReturnRequest } from '@bahi/contracts';
import {
  api,
  Button,
  formatINR,
  gstTaxables,
  isManager,
  NotePdfLink,
  noteValue,
  ReturnDialog,
  simpleShares,
  useUser,
  type NoteValueBill,
  type ReturnDialogLine,
} from '@bahi/ui-kit';

/** The purchase's lines with what can still go back, and each line's share of the purchase for the live value. */
export function purchaseReturnable(p: GetPurchaseDetailsReply): { lines: ReturnDialogLine[]; value: NoteValueBill } {
  const byLine = new Map((p.returns ?? []).map((r) => [r.sl_no, r]));
  const gstLines = new Map((p.gst?.lines ?? []).map((l) => [l.sl_no, l]));
  const amounts = p.lines.map((l) => l.amount);
  const shares = p.gst
    ? gstTaxables(p.lines.map((l) => Number(gstLines.get(l.sl_no)?.taxable_value ?? 0)), p.shipping, p.summery_discount)
    : simpleShares(amounts, p.summery_discount, p.tax === 1 ? p.taxAmount : 0);
  const rows = p.lines.map((l, i) => {
    const r = byLine.get(l.sl_no) ?? { sold: l.quantity, returned: 0, returnable: l.quantity };
    const g = gstLines.get(l.sl_no);
    return {
      sl_no: l.sl_no,
      name: `${l.product_id} : ${l.product_name}`,
      packLabel: l.per_peice_quantity !== 1 ? i18n.t('purchase:return.packOf', { qty: String(l.per_peice_quantity), unit: l.unit }) : l.unit,
      sold: r.sold,
      returned: r.returned,
      returnable: r.returnable,
      share: shares[i]!,
      ...(p.gst ? { ratePercent: Number(g?.gst_rate ?? 0), interState: p.gst.inter_state } : {}),
    };
  });
  const credited = (p.debitNotes ?? []).reduce((sum, n) => sum + n.amount, 0);
  return { lines: rows, value: { total: p.total, credited, lines: rows } };
}

/** "Return to distributor" on the purchase detail (managers): the shared return dialog posting /purchaseReturn. */
export function ReturnToDistributor({ purchase, onReturned }: { purchase: GetPurchaseDetailsReply; onReturned(): void }) {
  const user = useUser();
  const { t } = useTranslation('purchase');
  const [open, setOpen] = useState(false);
  const { lines, value } = useMemo(() => purchaseReturnable(purchase), [purchase]);
  const can = isManager(user) && lines.some((l) => l.returnable > 0);
  // The dialog stays mounted after the last packs went back: it still shows the note made.
  if (!can && !open) return null;
  return (
    <>
      {can && (
        <Button variant="secondary" onClick={() => setOpen(true)} data-testid="return-to-distributor">
          {t('return.button')}
        </Button>
      )}
      <ReturnDialog
        open={open}
        onClose={() => setOpen(false)}
        title={t('return.dialogTitle', { id: String(purchase.id), name: purchase.name })}
        kind="debit-note"
        noteLabel={t('return.noteLabel')}
        refundLabel={t('return.refundLabel')}
        lines={lines}
        valueOf={(picked) => noteValue(value, picked)}
        defaultRefund={() => 0}
        submit={async (body) => {
          const req: PurchaseReturnRequest = { purchaseId: purchase.id, ...body };
          const r = await api.post<PurchaseReturnReply>('/purchaseReturn', req);
          return { id: r.debitNoteId, no: r.debit_note_no, amount: r.amount, refund: r.refund, warnings: r.warnings };
        }}
        onDone={onReturned}
        testId="purchase-return-dialog"
      />
    </>
  );
}

/** The purchase's debit notes, each opening its PDF. */
export function PurchaseDebitNotes({ purchase }: { purchase: GetPurchaseDetailsReply }) {
  const { t } = useTranslation('purchase');
  const notes = purchase.debitNotes ?? [];
  if (notes.length === 0) return null;
  return (
    <div className="pu-notes" data-testid="purchase-debit-notes">
      <span className={`bk-badge ${(purchase.returns ?? []).every((r) => r.returnable <= 0) ? 'bk-badge--warning' : 'bk-badge--info'}`}>
        {(purchase.returns ?? []).every((r) => r.returnable <= 0) ? t('return.returned') : t('return.partly')}
      </span>
      {notes.map((n) => (
        <span key={n.debitNoteId} data-testid={`purchase-debit-note-${n.debitNoteId}`}>
          {t('return.debitNote')}{' '}
          <NotePdfLink kind="debit-note" id={n.debitNoteId}>
            {n.debit_note_no}
          </NotePdfLink>{' '}
          · {n.date} · {formatINR(n.amount)}
          {n.refund > 0 && <> {t('return.refund', { amount: formatINR(n.refund) })}</>}
        </span>
      ))}
    </div>
  );
}
