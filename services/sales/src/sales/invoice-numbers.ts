import { ConflictException, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { financialYear, formatInvoiceNo, GstError, maxInvoiceSerial } from '@bahi/gst';
import { Models, type SaleDoc } from '../common/schemas';

const MAX_ATTEMPTS = 50;

/** The financial year label ('26-27') of a sale dated YYYY-MM-DD on the shop's (IST) calendar. */
export const fyOfDate = (date: string): string => financialYear(`${date}T12:00:00+05:30`).label;

const isDuplicate = (err: unknown) => (err as { code?: number }).code === 11000;

/**
 * Invoice numbers PREFIX/YY-YY/NNNN, consecutive per company and financial year (CGST Rule 46(b)).
 * A number is written in the same update that marks the sale past the point of no return
 * (stock out, due posted), so a sale that is undone never took one and one past it always has
 * one (the `finish` step numbers any that was marked without). The next serial is the year's highest + 1, written with a
 * conditional update ("this sale has none yet") under the unique index {companyId, gst.fy,
 * gst.serial}: two counters racing for one serial get a duplicate key and the loser reads again.
 * Numbers are never taken back: a numbered sale that later fails keeps its number (a cancelled
 * invoice in GSTR-1's document summary).
 */
@Injectable()
export class InvoiceNumbers {
  /** The highest serial this replica wrote or read, per company and year: the first guess (one command) before reading the highest. */
  private readonly known = new Map<string, number>();

  constructor(@InjectModel(Models.Sale) private readonly model: Model<SaleDoc>) {}

  private key(companyId: number, fy: string) {
    return `${companyId}:${fy}`;
  }

  private note(companyId: number, fy: string, serial: number) {
    const k = this.key(companyId, fy);
    if (serial > (this.known.get(k) ?? 0)) this.known.set(k, serial);
  }

  /** The year's highest serial in the database (0 before the first invoice). */
  async highest(companyId: number, fy: string): Promise<number> {
    const top = (await this.model.collection
      .find({ companyId, 'gst.fy': fy, 'gst.serial': { $gt: 0 } }, { projection: { 'gst.serial': 1 } })
      .sort({ 'gst.serial': -1 })
      .limit(1)
      .next()) as { gst?: { serial?: number } } | null;
    const n = top?.gst?.serial ?? 0;
    this.note(companyId, fy, n);
    return n;
  }

  /** 409 before anything is applied when the year's series with this prefix is full (16 characters). */
  async assertRoom(companyId: number, fy: string, prefix: string): Promise<void> {
    const max = maxInvoiceSerial(prefix);
    const last = this.known.get(this.key(companyId, fy)) ?? (await this.highest(companyId, fy));
    if (last < max) return;
    if ((await this.highest(companyId, fy)) < max) return;
    throw new ConflictException(`The invoice series ${formatInvoiceNo(prefix, fy, max)} is full: GST allows at most 16 characters (CGST Rule 46(b)). Choose a shorter invoice prefix in Settings to continue selling this year.`);
  }

  /** The numbering in progress per company and year on this replica: one at a time (see assign). */
  private readonly queues = new Map<string, Promise<void>>();

  /**
   * Gives the sale its number unless it has one (a re-driven finish keeps it); sets it on `sale`.
   * Sales of one replica are numbered one after another: ten counters guessing the same next
   * serial at once cost up to ten failed writes and re-reads each. Serials stay gapless because
   * no number is taken before the one below it is written. Replicas still race through the index.
   */
  assign(sale: SaleDoc, alsoSet: Partial<SaleDoc> = {}): Promise<void> {
    const gst = sale.gst;
    if (!gst || gst.serial > 0) return Promise.resolve();
    const k = this.key(sale.companyId, gst.fy);
    const run = (this.queues.get(k) ?? Promise.resolve()).catch(() => undefined).then(() => this.assignNow(sale, alsoSet));
    this.queues.set(k, run);
    const done = () => {
      if (this.queues.get(k) === run) this.queues.delete(k);
    };
    run.then(done, done);
    return run;
  }

  /** `alsoSet`: the sale's progress fields, written in the same update as the number. */
  private async assignNow(sale: SaleDoc, alsoSet: Partial<SaleDoc>): Promise<void> {
    const gst = sale.gst;
    if (!gst || gst.serial > 0) return;
    const prefix = sale.invoicePrefix || 'INV';
    let guess = (this.known.get(this.key(sale.companyId, gst.fy)) ?? (await this.highest(sale.companyId, gst.fy))) + 1;
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      let invoice_no: string;
      try {
        invoice_no = formatInvoiceNo(prefix, gst.fy, guess);
      } catch (err) {
        if (err instanceof GstError) throw new ConflictException(err.message);
        throw err;
      }
      try {
        const r = await this.model.collection.updateOne(
          { companyId: sale.companyId, saleId: sale.saleId, 'gst.serial': 0 } as never,
          { $set: { ...alsoSet, 'gst.serial': guess, 'gst.invoice_no': invoice_no, updatedAt: new Date() } } as never,
        );
        if (r.matchedCount === 1) {
          Object.assign(sale, alsoSet);
          Object.assign(gst, { serial: guess, invoice_no });
          this.note(sale.companyId, gst.fy, guess);
          return;
        }
        // Another attempt numbered this sale meanwhile: keep its number.
        const now = (await this.model.collection.findOne({ companyId: sale.companyId, saleId: sale.saleId })) as SaleDoc | null;
        if (now?.gst && now.gst.serial > 0) {
          if (Object.keys(alsoSet).length) {
            await this.model.collection.updateOne({ companyId: sale.companyId, saleId: sale.saleId } as never, { $set: { ...alsoSet, updatedAt: new Date() } } as never);
            Object.assign(sale, alsoSet);
          }
          Object.assign(gst, { serial: now.gst.serial, invoice_no: now.gst.invoice_no });
          return;
        }
      } catch (err) {
        if (!isDuplicate(err)) throw err;
      }
      guess = (await this.highest(sale.companyId, gst.fy)) + 1;
    }
    throw new ConflictException('Too many sales took invoice numbers at once; please try again.');
  }
}
