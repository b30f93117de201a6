import { NotFoundException } from '@nestjs/common';
import { DocumentSubjects as S, type Customer, type ShareKind } from '@bahi/contracts';
import { Money } from '@bahi/service-kit';
import type { Ask } from '../documents/kinds';
import { billFigures } from '../templates/sale-docs';
import { gstAccount } from '../templates/tax-invoice';
import { isBillOfSupply } from '../templates/supply';

/** What a share link's message and public page say about one document. */
export interface ShareSummary {
  kind: ShareKind;
  /** 'Bill', 'Tax invoice', 'Estimate', 'Money receipt', 'Statement of account', 'Credit note'. */
  title: string;
  /** Printed number: '12', 'INV/26-27/0001', 'CN/26-27/0003'. */
  number: string;
  /** YYYY-MM-DD */
  date: string;
  /** The document's amount, decimal string. */
  amount: string;
  /** What is left to pay (bill, receipt, statement), decimal string; null where nothing is due (estimate, credit note). */
  due: string | null;
  dueDate: string | null;
  customerName: string;
  /** Ten-digit Indian mobile, or null (walk-in, none). */
  mobile: string | null;
  /** Note under the figures (a cancelled bill), in English. */
  note: string | null;
  /** The same note's parts, for the page in the link's language. */
  noteOf?: { key: 'cancelled'; date: string; reason: string } | { key: 'against'; saleId: number; reason: string } | null;
}

/** The last ten digits of a mobile number written with a +91, 0 or spaces; null when there are not ten. */
export function tenDigitMobile(raw: string | undefined | null): string | null {
  const digits = (raw ?? '').replace(/\D/g, '');
  if (digits.length < 10) return null;
  const ten = digits.slice(-10);
  return /^[6-9]/.test(ten) ? ten : null;
}

function party(c: Customer | null | undefined, walkIn = false): { customerName: string; mobile: string | null } {
  if (!c || walkIn || c.walkIn) return { customerName: c && !c.walkIn ? c.name : '', mobile: null };
  return { customerName: c.name, mobile: tenDigitMobile(c.mobile_no) };
}

const notFound = (what: string): never => {
  throw new NotFoundException(`${what} was not found.`);
};

/** Asks the document's owner for it (scoped by company: another company's id is unknown, 404). */
export async function summarize(ask: Ask, companyId: number, kind: ShareKind, id: number, today: string): Promise<ShareSummary> {
  switch (kind) {
    case 'bill': {
      const sale = await ask(S.saleDocument, { companyId, saleId: id });
      if (!sale) return notFound(`Bill ${id}`);
      const f = sale.gst ? gstAccount(sale, sale.gst) : null;
      const simple = sale.gst ? null : billFigures(sale);
      const amount = f ? f.invoiceValue : Money.sub(simple!.total, simple!.previousDue).toFixed();
      const due = f ? f.dueRounded : simple!.dueRounded;
      return {
        kind,
        title: sale.gst ? (isBillOfSupply(sale.gst) ? 'Bill of supply' : 'Tax invoice') : 'Bill',
        number: sale.gst?.invoice_no ?? String(sale.sale_id),
        date: sale.date,
        amount,
        due: Money.money(due).greaterThan(0) ? due : '0',
        dueDate: sale.due_date,
        ...party(sale.customer),
        note: sale.cancelled ? `Cancelled on ${sale.cancelled.date}: ${sale.cancelled.reason}` : null,
        noteOf: sale.cancelled ? { key: 'cancelled', date: sale.cancelled.date, reason: sale.cancelled.reason } : null,
      };
    }
    case 'estimate': {
      const e = await ask(S.estimateDocument, { companyId, estimateId: id });
      if (!e) return notFound(`Estimate ${id}`);
      const f = billFigures({ ...e, previousDue: e.previous_due, paid: '0' });
      // The estimate's own value: the printed Total also carries the customer's previous due.
      const amount = Money.sub(f.total, f.previousDue).toFixed();
      return { kind, title: 'Estimate', number: String(e.estimate_id), date: e.date, amount, due: null, dueDate: null, ...party(e.customer), note: null };
    }
    case 'receipt': {
      const r = await ask(S.receiptDocument, { companyId, paymentId: id });
      if (!r) return notFound(`Receipt ${id}`);
      return {
        kind,
        title: 'Money receipt',
        number: String(r.id),
        date: r.date,
        amount: Money.money(r.amount).toFixed(),
        due: Money.money(r.due).toFixed(),
        dueDate: r.next_due_date,
        customerName: r.name,
        mobile: tenDigitMobile(r.mobile_no),
        note: null,
      };
    }
    case 'statement': {
      // Only the due is needed here: one row asked, the PDF asks for the whole account.
      const st = await ask(S.customerStatement, { companyId, clientId: id, maxRows: 1 });
      if (!st) return notFound(`Customer ${id}`);
      const due = Money.money(st.due);
      return { kind, title: 'Statement of account', number: String(st.customer.client_id), date: today, amount: due.toFixed(), due: due.toFixed(), dueDate: st.dueDate, ...party(st.customer), note: null };
    }
    case 'credit-note': {
      const n = await ask(S.creditNoteDocument, { companyId, creditNoteId: id });
      if (!n) return notFound(`Credit note ${id}`);
      return {
        kind,
        title: 'Credit note',
        number: n.credit_note_no,
        date: n.date,
        amount: Money.money(n.amount).toFixed(),
        due: null,
        dueDate: null,
        ...party(n.customer, n.walkIn),
        note: n.reason ? `Against bill ${n.saleId}: ${n.reason}` : `Against bill ${n.saleId}`,
        noteOf: { key: 'against', saleId: n.saleId, reason: n.reason ?? '' },
      };
    }
  }
}
