import { BadRequestException } from '@nestjs/common';
import { Decimal, fixed2, roundOff, toPaisa, validateGstin } from '@bahi/gst';
import { isRealDate, today } from '@bahi/service-kit';
import { paiseNumber, paiseOf } from '../gst-returns/paise';

/** '2026-04-01' -> '01-04-2026' (GSTR-1 JSON dates). */
export const jsonDate = (iso: string): string => `${iso.slice(8, 10)}-${iso.slice(5, 7)}-${iso.slice(0, 4)}`;

export interface TaxedLine {
  gst_rate: string;
  taxable_value: string;
  igst: string;
  cgst: string;
  sgst: string;
}

export interface AmendChanges {
  gstin?: string;
  date?: string;
  items?: { rate: number; txval: string }[];
}

type Itm = { num: number; itm_det: { txval: number; rt: number; iamt?: number; camt?: number; samt?: number; csamt: number } };

/** The document's figures per rate, as GSTR-1 writes an invoice's itms (paise summed exactly). */
export function itemsOf(lines: TaxedLine[], interState: boolean): Itm[] {
  const by = new Map<number, { txval: number; iamt: number; camt: number; samt: number }>();
  for (const l of lines) {
    const rt = Number(l.gst_rate);
    const h = by.get(rt) ?? { txval: 0, iamt: 0, camt: 0, samt: 0 };
    h.txval += paiseOf(l.taxable_value);
    h.iamt += paiseOf(l.igst);
    h.camt += paiseOf(l.cgst);
    h.samt += paiseOf(l.sgst);
    by.set(rt, h);
  }
  return [...by.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([rt, h], i) => ({
      num: i + 1,
      itm_det: interState
        ? { txval: paiseNumber(h.txval), rt, iamt: paiseNumber(h.iamt), csamt: 0 }
        : { txval: paiseNumber(h.txval), rt, camt: paiseNumber(h.camt), samt: paiseNumber(h.samt), csamt: 0 },
    }));
}

/**
 * Corrected taxable values per rate -> the items and the document value: IGST = taxable x rate %,
 * or CGST = SGST = taxable x rate / 2 %, each half-up to the paisa (as the invoice was taxed),
 * and the value to the rupee (CGST Act s.170) for an invoice, to the paisa for a note.
 */
export function correctedItems(items: { rate: number; txval: string }[], interState: boolean, toRupee: boolean): { itms: Itm[]; val: number } {
  let total = new Decimal(0);
  const itms = [...items]
    .sort((a, b) => a.rate - b.rate)
    .map((it, i) => {
      const tx = new Decimal(it.txval);
      if (interState) {
        const iamt = toPaisa(tx.times(it.rate).div(100));
        total = total.plus(tx).plus(iamt);
        return { num: i + 1, itm_det: { txval: Number(fixed2(tx)), rt: it.rate, iamt: Number(fixed2(iamt)), csamt: 0 } };
      }
      const half = toPaisa(tx.times(it.rate).div(200));
      total = total.plus(tx).plus(half).plus(half);
      return { num: i + 1, itm_det: { txval: Number(fixed2(tx)), rt: it.rate, camt: Number(fixed2(half)), samt: Number(fixed2(half)), csamt: 0 } };
    });
  return { itms, val: Number(toRupee ? roundOff(total).value : fixed2(toPaisa(total))) };
}

const TXVAL = /^\d{1,11}(\.\d{1,2})?$/;

/**
 * `changes` checked against the original: a corrected GSTIN (valid, of the same state: another
 * state changes the place of supply, which is a new supply, not an amendment), a date (real, not
 * ahead of today, in the original's financial year: its number belongs to that year's series),
 * taxable values per rate (each of the original's rates once, above 0). 400 with a sentence.
 */
export function checkChanges(raw: unknown, original: { no: string; gstin: string; date: string; fy: string; rates: number[] }): AmendChanges {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new BadRequestException('changes must be an object with the corrected gstin, date and/or items ([{rate, txval}]).');
  const c = raw as Record<string, unknown>;
  const unknown = Object.keys(c).filter((k) => !['gstin', 'date', 'items'].includes(k));
  if (unknown.length) throw new BadRequestException(`changes may correct only gstin, date and items (the taxable value per rate), not ${unknown.join(', ')}.`);
  const out: AmendChanges = {};
  if (c.gstin !== undefined) {
    if (typeof c.gstin !== 'string') throw new BadRequestException('changes.gstin must be the corrected GSTIN: 15 letters and digits.');
    const g = validateGstin(c.gstin);
    if (!g.ok) throw new BadRequestException(`changes.gstin: ${g.message}`);
    if (g.gstin === original.gstin) throw new BadRequestException(`changes.gstin is the GSTIN ${original.no} already carries; give the corrected one.`);
    if (g.stateCode !== original.gstin.slice(0, 2)) {
      throw new BadRequestException(`The corrected GSTIN is of state ${g.stateCode}, the original's of ${original.gstin.slice(0, 2)}: a different place of supply is a different supply. Issue a credit note and a new invoice instead.`);
    }
    out.gstin = g.gstin;
  }
  if (c.date !== undefined) {
    if (!isRealDate(c.date)) throw new BadRequestException('changes.date must be a real date (YYYY-MM-DD).');
    if (c.date === original.date) throw new BadRequestException(`changes.date is the date ${original.no} already carries; give the corrected one.`);
    if (c.date > today()) throw new BadRequestException('changes.date is in the future.');
    const y = Number(c.date.slice(0, 4));
    const fy = Number(c.date.slice(5, 7)) >= 4 ? y : y - 1;
    if (`${String(fy % 100).padStart(2, '0')}-${String((fy + 1) % 100).padStart(2, '0')}` !== original.fy) {
      throw new BadRequestException(`changes.date must lie in the financial year 20${original.fy} of ${original.no}'s number.`);
    }
    out.date = c.date;
  }
  if (c.items !== undefined) {
    if (!Array.isArray(c.items) || !c.items.length) throw new BadRequestException('changes.items must list the corrected taxable value of each rate: [{rate, txval}].');
    const seen = new Set<number>();
    out.items = c.items.map((x, i) => {
      const it = (x ?? {}) as { rate?: unknown; txval?: unknown };
      const rate = Number(it.rate);
      if (!original.rates.includes(rate)) throw new BadRequestException(`changes.items[${i}]: rate must be one of ${original.no}'s rates (${original.rates.join(', ')} %).`);
      if (seen.has(rate)) throw new BadRequestException(`changes.items[${i}]: rate ${rate} % is given twice.`);
      seen.add(rate);
      const tx = typeof it.txval === 'number' ? String(it.txval) : typeof it.txval === 'string' ? it.txval.trim() : '';
      if (!TXVAL.test(tx) || new Decimal(tx).lte(0)) throw new BadRequestException(`changes.items[${i}]: txval must be the corrected taxable value in rupees, above 0 with at most 2 decimals.`);
      return { rate, txval: fixed2(new Decimal(tx)) };
    });
    if (seen.size !== original.rates.length) {
      throw new BadRequestException(`changes.items must give every rate of ${original.no} (${original.rates.join(', ')} %): the amendment replaces the whole document's values.`);
    }
  }
  if (!out.gstin && !out.date && !out.items) throw new BadRequestException('changes must correct the gstin, the date or the items; nothing was given.');
  return out;
}
