import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { Subjects, type Gstr3bPortalJson, type Gstr3bReply } from '@bahi/contracts';
import { setOffItc } from '@bahi/gst';
import { NatsClient } from '@bahi/service-kit';
import { Models, type SaleDoc } from '../common/schemas';
import { ReturnModels, type CreditNoteDoc } from '../returns/schema';
import { n2 } from './gstr1-totals';
import { paiseNumber, paiseOf, paiseText } from './paise';
import type { ReturnPeriod } from './period';
import { periodTotals } from './period-totals';

const money = (s: string): number => paiseNumber(paiseOf(s));
const HEADS = ['txval', 'iamt', 'camt', 'samt'] as const;

/**
 * GSTR-3B of one month. Since July 2025 its outward liability (3.1, 3.2) is locked to what
 * GSTR-1 reports, so it is computed from the very totals GSTR-1 writes (period-totals.ts): 3.1(a)
 * is b2b + b2cl + b2cs + cdnr + cdnur, 3.1(c) Table 8's nil and exempt, 3.1(e) its non-GST, 3.2
 * the inter-state unregistered part by place of supply. A head the notes take below zero shows 0
 * and its excess is reported to adjust. Input tax is inventory's purchases net of their debit
 * notes (inventory.gst.inward): Bahi's estimate; the portal fills 4A from GSTR-2B.
 */
@Injectable()
export class Gstr3bService {
  constructor(
    @InjectModel(Models.Sale) private readonly sales: Model<SaleDoc>,
    @InjectModel(ReturnModels.CreditNote) private readonly notes: Model<CreditNoteDoc>,
    private readonly nats: NatsClient,
  ) {}

  async summary(companyId: number, gstin: string, p: ReturnPeriod): Promise<Gstr3bReply> {
    const t = await periodTotals(this.sales, this.notes, companyId, p);
    // Exact integer paise (paise.ts).
    const out = { ...t.outward };
    const excess = { txval: 0, iamt: 0, camt: 0, samt: 0 };
    for (const k of HEADS) {
      if (out[k] < 0) {
        excess[k] = -out[k];
        out[k] = 0;
      }
    }
    const nil = t.nilTotals();
    const unreg = [...t.unreg.entries()].filter(([, r]) => r.txval > 0).sort((a, b) => a[0].localeCompare(b[0]));
    const inward = await this.nats.send(Subjects.inventory.gstInward, { companyId, from: p.from, to: p.to });
    const setOff = setOffItc({ igst: paiseText(out.iamt), cgst: paiseText(out.camt), sgst: paiseText(out.samt) }, inward.itc);
    return {
      gstin,
      ret_period: p.fp,
      outward: { txval: n2(out.txval), iamt: n2(out.iamt), camt: n2(out.camt), samt: n2(out.samt), csamt: 0 },
      nil_exempt: { txval: n2(Math.max(0, nil.nil + nil.expt)) },
      non_gst: { txval: n2(Math.max(0, nil.ngsup)) },
      excess: { txval: n2(excess.txval), iamt: n2(excess.iamt), camt: n2(excess.camt), samt: n2(excess.samt) },
      inter_state_unreg: unreg.map(([pos, r]) => ({ pos, txval: n2(r.txval), iamt: n2(Math.max(0, r.iamt)) })),
      itc: { iamt: money(inward.itc.igst), camt: money(inward.itc.cgst), samt: money(inward.itc.sgst), csamt: 0 },
      net_payable: { iamt: money(setOff.payable.igst), camt: money(setOff.payable.cgst), samt: money(setOff.payable.sgst), csamt: 0 },
      itc_carried: { iamt: money(setOff.carried.igst), camt: money(setOff.carried.cgst), samt: money(setOff.carried.sgst) },
    };
  }

  /** The same figures in the portal's GSTR-3B JSON keys (README "GSTR-3B JSON"). */
  async portalJson(companyId: number, gstin: string, p: ReturnPeriod): Promise<Gstr3bPortalJson> {
    const s = await this.summary(companyId, gstin, p);
    const zero = { iamt: 0, camt: 0, samt: 0, csamt: 0 };
    const itc = { iamt: s.itc.iamt, camt: s.itc.camt, samt: s.itc.samt, csamt: 0 };
    return {
      gstin,
      ret_period: s.ret_period,
      sup_details: {
        osup_det: s.outward,
        osup_zero: { txval: 0, iamt: 0, csamt: 0 },
        osup_nil_exmp: s.nil_exempt,
        isup_rev: { txval: 0, ...zero },
        osup_nongst: s.non_gst,
      },
      inter_sup: { unreg_details: s.inter_state_unreg, comp_details: [], uin_details: [] },
      itc_elg: {
        // Bahi's purchases from registered distributors are "all other ITC" (4(A)(5)).
        itc_avl: [{ ty: 'IMPG', ...zero }, { ty: 'IMPS', ...zero }, { ty: 'ISRC', ...zero }, { ty: 'ISD', ...zero }, { ty: 'OTH', ...itc }],
        itc_rev: [{ ty: 'RUL', ...zero }, { ty: 'OTH', ...zero }],
        itc_net: itc,
        itc_inelg: [{ ty: 'RUL', ...zero }, { ty: 'OTH', ...zero }],
      },
      inward_sup: { isup_details: [{ ty: 'GST', inter: 0, intra: 0 }, { ty: 'NONGST', inter: 0, intra: 0 }] },
      intr_ltfee: { intr_details: { ...zero }, ltfee_details: { camt: 0, samt: 0 } },
    };
  }
}
