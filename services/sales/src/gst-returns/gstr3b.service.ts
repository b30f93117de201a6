import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { Subjects, type Gstr3bReply } from '@bahi/contracts';
import { Decimal, setOffItc } from '@bahi/gst';
import { NatsClient } from '@bahi/service-kit';
import { Models, type SaleDoc } from '../common/schemas';
import type { ReturnPeriod } from './period';
import { invoices, monthByDay } from './returns-data';

const n2 = (d: Decimal | string): number => Number(new Decimal(d).toFixed(2));

/**
 * GSTR-3B of one month: outward supplies from the month's tax invoices (one streamed pass),
 * input tax from inventory's purchases (inventory.gst.inward), and the cash payable after
 * setting the credit off (@bahi/gst setOffItc).
 */
@Injectable()
export class Gstr3bService {
  constructor(
    @InjectModel(Models.Sale) private readonly sales: Model<SaleDoc>,
    private readonly nats: NatsClient,
  ) {}

  async summary(companyId: number, gstin: string, p: ReturnPeriod): Promise<Gstr3bReply> {
    const out = { txval: new Decimal(0), iamt: new Decimal(0), camt: new Decimal(0), samt: new Decimal(0) };
    let nil = new Decimal(0);
    const unreg = new Map<string, { txval: Decimal; iamt: Decimal }>();
    for await (const s of invoices(monthByDay(this.sales, companyId, p))) {
      const g = s.gst;
      for (const l of g.lines) {
        if (new Decimal(l.gst_rate).isZero()) {
          nil = nil.plus(l.taxable_value); // 3.1(c): nil rated
          continue;
        }
        out.txval = out.txval.plus(l.taxable_value);
        out.iamt = out.iamt.plus(l.igst);
        out.camt = out.camt.plus(l.cgst);
        out.samt = out.samt.plus(l.sgst);
        if (g.inter_state && !g.b2b) {
          // 3.2: the part of 3.1(a) supplied inter-state to unregistered persons, by place of supply.
          const row = unreg.get(g.place_of_supply) ?? { txval: new Decimal(0), iamt: new Decimal(0) };
          row.txval = row.txval.plus(l.taxable_value);
          row.iamt = row.iamt.plus(l.igst);
          unreg.set(g.place_of_supply, row);
        }
      }
    }
    const inward = await this.nats.send(Subjects.inventory.gstInward, { companyId, from: p.from, to: p.to });
    const setOff = setOffItc({ igst: out.iamt, cgst: out.camt, sgst: out.samt }, inward.itc);
    return {
      gstin,
      ret_period: p.fp,
      outward: { txval: n2(out.txval), iamt: n2(out.iamt), camt: n2(out.camt), samt: n2(out.samt), csamt: 0 },
      nil_exempt: { txval: n2(nil) },
      inter_state_unreg: [...unreg.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([pos, r]) => ({ pos, txval: n2(r.txval), iamt: n2(r.iamt) })),
      itc: { iamt: n2(inward.itc.igst), camt: n2(inward.itc.cgst), samt: n2(inward.itc.sgst), csamt: 0 },
      net_payable: { iamt: n2(setOff.payable.igst), camt: n2(setOff.payable.cgst), samt: n2(setOff.payable.sgst), csamt: 0 },
      itc_carried: { iamt: n2(setOff.carried.igst), camt: n2(setOff.carried.cgst), samt: n2(setOff.carried.sgst) },
    };
  }
}
