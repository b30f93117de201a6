import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { Subjects, type Gstr3bReply } from '@bahi/contracts';
import { setOffItc } from '@bahi/gst';
import { NatsClient } from '@bahi/service-kit';
import { Models, type SaleDoc } from '../common/schemas';
import { ReturnModels, type CreditNoteDoc } from '../returns/schema';
import { monthNotes } from './notes-data';
import { paiseNumber, paiseOf, paiseText } from './paise';
import type { ReturnPeriod } from './period';
import { invoices, monthByDay } from './returns-data';

const n2 = paiseNumber;
const money = (s: string): number => paiseNumber(paiseOf(s));

/**
 * GSTR-3B of one month: outward supplies from the month's tax invoices less its credit notes
 * (one streamed pass each), input tax from inventory's purchases net of its debit notes
 * (inventory.gst.inward), and the cash payable after
 * setting the credit off (@bahi/gst setOffItc).
 */
@Injectable()
export class Gstr3bService {
  constructor(
    @InjectModel(Models.Sale) private readonly sales: Model<SaleDoc>,
    @InjectModel(ReturnModels.CreditNote) private readonly notes: Model<CreditNoteDoc>,
    private readonly nats: NatsClient,
  ) {}

  async summary(companyId: number, gstin: string, p: ReturnPeriod): Promise<Gstr3bReply> {
    // Exact integer paise (paise.ts).
    const out = { txval: 0, iamt: 0, camt: 0, samt: 0 };
    let nil = 0;
    const unreg = new Map<string, { txval: number; iamt: number }>();
    for await (const s of invoices(monthByDay(this.sales, companyId, p))) {
      const g = s.gst;
      for (const l of g.lines) {
        if (Number(l.gst_rate) === 0) {
          nil += paiseOf(l.taxable_value); // 3.1(c): nil rated
          continue;
        }
        out.txval += paiseOf(l.taxable_value);
        out.iamt += paiseOf(l.igst);
        out.camt += paiseOf(l.cgst);
        out.samt += paiseOf(l.sgst);
        if (g.inter_state && !g.b2b) {
          // 3.2: the part of 3.1(a) supplied inter-state to unregistered persons, by place of supply.
          const row = unreg.get(g.place_of_supply) ?? { txval: 0, iamt: 0 };
          row.txval += paiseOf(l.taxable_value);
          row.iamt += paiseOf(l.igst);
          unreg.set(g.place_of_supply, row);
        }
      }
    }
    // Credit notes of the month reduce the month's outward supplies at their original rates and heads.
    for await (const n of monthNotes(this.notes, companyId, p)) {
      for (const line of n.lines) {
        const l = line.gst;
        if (!l) continue;
        if (Number(l.gst_rate) === 0) {
          nil -= paiseOf(l.taxable_value);
          continue;
        }
        out.txval -= paiseOf(l.taxable_value);
        out.iamt -= paiseOf(l.igst);
        out.camt -= paiseOf(l.cgst);
        out.samt -= paiseOf(l.sgst);
        if (n.gst.inter_state && !n.gst.gstin) {
          const row = unreg.get(n.gst.place_of_supply) ?? { txval: 0, iamt: 0 };
          row.txval -= paiseOf(l.taxable_value);
          row.iamt -= paiseOf(l.igst);
          unreg.set(n.gst.place_of_supply, row);
        }
      }
    }
    // A month whose notes exceed its sales reports zero: Table 3.1 takes no negative value.
    for (const k of ['txval', 'iamt', 'camt', 'samt'] as const) out[k] = Math.max(0, out[k]);
    nil = Math.max(0, nil);
    for (const [pos, r] of unreg) {
      if (r.txval <= 0) unreg.delete(pos);
      else r.iamt = Math.max(0, r.iamt);
    }
    const inward = await this.nats.send(Subjects.inventory.gstInward, { companyId, from: p.from, to: p.to });
    const setOff = setOffItc({ igst: paiseText(out.iamt), cgst: paiseText(out.camt), sgst: paiseText(out.samt) }, inward.itc);
    return {
      gstin,
      ret_period: p.fp,
      outward: { txval: n2(out.txval), iamt: n2(out.iamt), camt: n2(out.camt), samt: n2(out.samt), csamt: 0 },
      nil_exempt: { txval: n2(nil) },
      inter_state_unreg: [...unreg.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([pos, r]) => ({ pos, txval: n2(r.txval), iamt: n2(r.iamt) })),
      itc: { iamt: money(inward.itc.igst), camt: money(inward.itc.cgst), samt: money(inward.itc.sgst), csamt: 0 },
      net_payable: { iamt: money(setOff.payable.igst), camt: money(setOff.payable.cgst), samt: money(setOff.payable.sgst), csamt: 0 },
      itc_carried: { iamt: money(setOff.carried.igst), camt: money(setOff.carried.cgst), samt: money(setOff.carried.sgst) },
    };
  }
}
