import { useMemo, useState } from 'react';
import type { BillDetailsReply, SalesReturnReply, SalesReturnRequest } from '@bahi/contracts';
import { i18n, useLanguage, useTranslation } from '@bahi/i18n';
import { api, Button, gstTaxables, isManager, noteValue, ReturnDialog, simpleShares, useUser, type NoteValueBill, type ReturnDialogLine } from '@bahi/ui-kit';

/** The bill's lines with what can still come back, and each line's share of the bill for the live value. */
export function returnableOf(bill: BillDetailsReply): { lines: ReturnDialogLine[]; value: NoteValueBill } {
  const s = bill.saleDetails;
  const gst = !!s.tax_mode && s.tax_mode !== 'simple' && !!s.invoice_no;
  const byLine = new Map((bill.returns ?? []).map((r) => [r.sl_no, r]));
  const amounts = bill.soldProducts.map((p) => p.amount);
  const shares = gst
    ? gstTaxables(bill.soldProducts.map((p) => Number(p.taxable_value ?? 0)), s.shipping, s.summery_discount)
    : simpleShares(amounts, s.summery_discount, s.tax === 1 ? s.taxAmount : 0);
  const rows = bill.soldProducts.map((p, i) => {
    const r = byLine.get(p.sl_no) ?? { sold: p.quantity, returned: 0, returnable: p.quantity };
    return {
      line: {
        sl_no: p.sl_no,
        name: p.product_name,
        packLabel: p.per_peice_quantity !== 1 ? i18n.t('sales:returns.pack', { count: p.per_peice_quantity, unit: p.unit }) : p.unit,
        sold: r.sold,
        returned: r.returned,
        returnable: r.returnable,
      },
      share: shares[i]!,
      // A bill of supply carries no tax.
      gst: gst ? { ratePercent: s.document === 'bill-of-supply' ? 0 : Number(p.gst_rate ?? 0), interState: !!s.inter_state } : {},
    };
  });
  const credited = (bill.creditNotes ?? []).reduce((sum, n) => sum + n.amount, 0);
  return {
    lines: rows.map((r) => r.line),
    value: {
      total: gst ? Number(s.invoice_value ?? s.amount) : s.amount,
      credited,
      lines: rows.map((r) => ({ ...r.line, share: r.share, ...r.gst })),
    },
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
  const { lines, value } = useMemo(() => returnableOf(bill), [bill, language]);
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
        valueOf={(picked) => noteValue(value, picked)}
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
