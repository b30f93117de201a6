import { useMemo, useState } from 'react';
import { i18n, useTranslation } from '@bahi/i18n';
import type { GetPurchaseDetailsReply, PurchaseReturnReply, PurchaseReturnRequest, ReturnPreviewReply } from '@bahi/contracts';
import {
  api,
  Button,
  formatINR,
  isManager,
  NotePdfLink,
  ReturnDialog,
  useUser,
  type ReturnDialogLine,
} from '@bahi/ui-kit';

/** The purchase's lines with what can still go back (the note's value is the server's: GET /previewPurchaseReturn). */
export function purchaseReturnable(p: GetPurchaseDetailsReply): { lines: ReturnDialogLine[] } {
  const byLine = new Map((p.returns ?? []).map((r) => [r.sl_no, r]));
  return {
    lines: p.lines.map((l) => {
      const r = byLine.get(l.sl_no) ?? { sold: l.quantity, returned: 0, returnable: l.quantity };
      return {
        sl_no: l.sl_no,
        name: `${l.product_id} : ${l.product_name}`,
        packLabel: l.per_peice_quantity !== 1 ? i18n.t('purchase:return.packOf', { qty: String(l.per_peice_quantity), unit: l.unit }) : l.unit,
        sold: r.sold,
        returned: r.returned,
        returnable: r.returnable,
      };
    }),
  };
}

/** "Return to distributor" on the purchase detail (managers): the shared return dialog posting /purchaseReturn. */
export function ReturnToDistributor({ purchase, onReturned }: { purchase: GetPurchaseDetailsReply; onReturned(): void }) {
  const user = useUser();
  const { t } = useTranslation('purchase');
  const [open, setOpen] = useState(false);
  const { lines } = useMemo(() => purchaseReturnable(purchase), [purchase]);
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
        // No browser figure (said explicitly: every object has a valueOf); the server's preview, from the booking's rule.
        valueOf={undefined}
        preview={(picked) =>
          api.get<ReturnPreviewReply>('/previewPurchaseReturn', { query: { purchaseId: purchase.id, lines: [...picked].map(([sl, q]) => `${sl}:${q}`).join(',') } })
        }
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
