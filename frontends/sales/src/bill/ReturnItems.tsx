import { useMemo, useState } from 'react';
import type { BillDetailsReply, ReturnPreviewReply, SalesReturnReply, SalesReturnRequest } from '@bahi/contracts';
import { i18n, useLanguage, useTranslation } from '@bahi/i18n';
import { api, Button, isManager, ReturnDialog, useUser, type ReturnDialogLine } from '@bahi/ui-kit';

/** The bill's lines with what can still come back (the note's value is the server's: GET /previewReturn). */
export function returnableOf(bill: BillDetailsReply): { lines: ReturnDialogLine[] } {
  const byLine = new Map((bill.returns ?? []).map((r) => [r.sl_no, r]));
  return {
    lines: bill.soldProducts.map((p) => {
      const r = byLine.get(p.sl_no) ?? { sold: p.quantity, returned: 0, returnable: p.quantity };
      return {
        sl_no: p.sl_no,
        name: p.product_name,
        packLabel: p.per_peice_quantity !== 1 ? i18n.t('sales:returns.pack', { count: p.per_peice_quantity, unit: p.unit }) : p.unit,
        sold: r.sold,
        returned: r.returned,
        returnable: r.returnable,
      };
    }),
  };
}

/**
 * "Return items" on the bill view (managers, while something can still come back and the bill
 * is not cancelled): the shared return dialog posting /salesReturn; a credit note comes back.
 */
export function ReturnItems({ bill, onReturned }: { bill: BillDetailsReply; onReturned(): void }) {
  const user = useUser();
  const [open, setOpen] = useState(false);
  const { t } = useTranslation('sales');
  const language = useLanguage();
  // The pack labels are words: made again when the language changes.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const { lines } = useMemo(() => returnableOf(bill), [bill, language]);
  const s = bill.saleDetails;
  const can = isManager(user) && !bill.cancelled && bill.status !== 'Cancelled' && lines.some((l) => l.returnable > 0);
  // The dialog stays mounted after the last packs came back: it still shows the note made.
  if (!can && !open) return null;
  return (
    <>
      {can && (
        <Button variant="secondary" onClick={() => setOpen(true)} data-testid="return-items">
          {t('returns.button')}
        </Button>
      )}
      <ReturnDialog
        open={open}
        onClose={() => setOpen(false)}
        title={t('returns.title', { no: s.sale_id })}
        kind="credit-note"
        noteLabel={t('returns.creditNote')}
        refundLabel={t('returns.refundCash')}
        lines={lines}
        // No browser figure (said explicitly: every object has a valueOf); the server's preview below.
        valueOf={undefined}
        // What the return would book, from the server's own rule (never browser floating point).
        preview={(picked) =>
          api.get<ReturnPreviewReply>('/previewReturn', { query: { saleId: s.sale_id, lines: [...picked].map(([sl, q]) => `${sl}:${q}`).join(',') } })
        }
        // The walk-in has no account to credit: the money goes back in cash.
        defaultRefund={(v) => (s.walkIn ? v : 0)}
        submit={async (body) => {
          const req: SalesReturnRequest = { saleId: s.sale_id, ...body };
          const r = await api.post<SalesReturnReply>('/salesReturn', req);
          return { id: r.creditNoteId, no: r.credit_note_no, amount: r.amount, refund: r.refund, warnings: r.warnings };
        }}
        onDone={onReturned}
        testId="sales-return-dialog"
      />
    </>
  );
}
