import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { Subjects, type CompanyDetails, type GstInwardReply } from '@bahi/contracts';
import { Decimal, isRealDate, NatsClient } from '@bahi/service-kit';
import { Gstr2bService } from '../gstr2b/gstr2b.service';
import { DEBIT_NOTE_MODEL, type DebitNoteDoc } from './debit-note.schema';
import { PurchasesService } from './purchases.service';

const fixed2 = (x: Decimal) => (x.isZero() ? '0.00' : x.toFixed(2));

/**
 * Input tax of a company's complete GST-mode purchases dated in [from, to] (GSTR-3B table 4).
 * ITC only from purchases whose distributor had a GSTIN frozen on them (CGST Act s.16(2)(a):
 * credit needs the supplier's tax invoice, which only a registered supplier issues) and never
 * for a composition dealer (s.10(4)). Read as a cursor over the date index, a month at a time.
 * Debit notes (purchase returns) dated in the range take their input tax back off, under the same
 * rules (CGST Act s.34(1): goods returned reduce the original invoice's taxable value and tax, so
 * the credit taken on them goes too): the totals and the ITC are net.
 */
@Injectable()
export class PurchaseInwardService {
  constructor(
    private readonly purchases: PurchasesService,
    @InjectModel(DEBIT_NOTE_MODEL) private readonly notes: Model<DebitNoteDoc>,
    private readonly gstr2b: Gstr2bService,
    private readonly nats: NatsClient,
  ) {}

  async totals(companyId: number, from: string, to: string): Promise<GstInwardReply> {
    if (!isRealDate(from) || !isRealDate(to)) throw new BadRequestException('from and to must be real dates written YYYY-MM-DD.');
    if (from > to) throw new BadRequestException(`from (${from}) is after to (${to}).`);
    const zero = () => ({ taxable: new Decimal(0), igst: new Decimal(0), cgst: new Decimal(0), sgst: new Decimal(0) });
    const all = zero();
    const itc = zero();
    let purchases = 0;
    // itc_from_matched_only (issue 31): credit only from purchases matched in the range's GSTR-2Bs;
    // a debit note takes credit back when the supplier's credit note is matched in them, or when
    // its purchase's credit was taken (matched in any 2B up to `to`): nothing else was claimed.
    const company: CompanyDetails = await this.nats.send(Subjects.identity.companyDetails, { companyId });
    const onlyMatched = company.itc_from_matched_only === true;
    const matched = onlyMatched ? (await this.gstr2b.matched(companyId, from, to)).purchases : null;
    const claimed = onlyMatched ? await this.gstr2b.matched(companyId, '0000-01-01', to) : null;
    const cursor = this.purchases.model
      .find({ companyId, status: 'complete', date: { $gte: from, $lte: to }, gst: { $ne: null } }, { gst: 1, taxMode: 1, purchaseId: 1 })
      .lean()
      .cursor();
    for await (const p of cursor) {
      const g = p.gst;
      if (!g) continue;
      purchases++;
      const heads = [all, ...(g.distributor_gstin && p.taxMode === 'gst' && (!matched || matched.has(p.purchaseId)) ? [itc] : [])];
      for (const h of heads) {
        h.taxable = h.taxable.plus(g.taxable_total);
        h.igst = h.igst.plus(g.igst_total);
        h.cgst = h.cgst.plus(g.cgst_total);
        h.sgst = h.sgst.plus(g.sgst_total);
      }
    }
    const notes = this.notes
      .find({ companyId, status: 'complete', date: { $gte: from, $lte: to }, gst: { $ne: null } }, { gst: 1, taxMode: 1, taxable: 1, igst: 1, cgst: 1, sgst: 1, debitNoteId: 1, purchaseId: 1 })
      .lean()
      .cursor();
    for await (const n of notes) {
      if (!n.gst) continue;
      const reverses = !claimed || claimed.notes.has(n.debitNoteId) || claimed.purchases.has(n.purchaseId);
      const heads = [all, ...(n.gst.distributor_gstin && n.taxMode === 'gst' && reverses ? [itc] : [])];
      for (const h of heads) {
        h.taxable = h.taxable.minus(n.taxable);
        h.igst = h.igst.minus(n.igst);
        h.cgst = h.cgst.minus(n.cgst);
        h.sgst = h.sgst.minus(n.sgst);
      }
    }
    return {
      purchases,
      taxable: fixed2(all.taxable),
      igst: fixed2(all.igst),
      cgst: fixed2(all.cgst),
      sgst: fixed2(all.sgst),
      itc: { igst: fixed2(itc.igst), cgst: fixed2(itc.cgst), sgst: fixed2(itc.sgst) },
    };
  }
}
