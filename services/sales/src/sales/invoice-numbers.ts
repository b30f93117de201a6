import { ConflictException, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { formatInvoiceNo, GstError, maxInvoiceSerial } from '@bahi/gst';
import { DocumentSeries, financialYearOf, SeriesDocumentGone } from '@bahi/service-kit';
import { Models, type SaleDoc } from '../common/schemas';

/** The financial year label ('26-27') of a sale dated YYYY-MM-DD on the shop's (IST) calendar. */
export const fyOfDate = financialYearOf;

/**
 * Invoice numbers PREFIX/YY-YY/NNNN, consecutive per company and financial year (CGST Rule 46(b)),
 * through the kit's DocumentSeries (credit notes use the same). A number is written in the same
 * update that marks the sale past the point of no return (stock out, due posted), so a sale that
 * is undone never took one and one past it always has one (the `finish` step numbers any that
 * was marked without). The next serial is the year's highest + 1, written with a conditional
 * update ("this sale has none yet") under the unique index {companyId, gst.fy, gst.serial}: two
 * counters racing for one serial get a duplicate key and the loser reads again. Numbers are never
 * taken back: a numbered sale that later fails keeps its number (a cancelled invoice in GSTR-1's
 * document summary).
 */
@Injectable()
export class InvoiceNumbers {
  private readonly series: DocumentSeries;

  constructor(@InjectModel(Models.Sale) model: Model<SaleDoc>) {
    this.series = new DocumentSeries({
      collection: model.collection as never,
      fyField: 'gst.fy',
      serialField: 'gst.serial',
      numberField: 'gst.invoice_no',
      format: (fy, n) => formatInvoiceNo('INV', fy, n),
      busyMessage: 'Too many sales took invoice numbers at once; please try again.',
    });
  }

  /** The year's highest serial in the database (0 before the first invoice). */
  highest(companyId: number, fy: string): Promise<number> {
    return this.series.highest(companyId, fy);
  }

  /** 409 before anything is applied when the year's series with this prefix is full (16 characters). */
  async assertRoom(companyId: number, fy: string, prefix: string): Promise<void> {
    const max = maxInvoiceSerial(prefix);
    if ((await this.series.last(companyId, fy)) < max) return;
    if ((await this.series.highest(companyId, fy)) < max) return;
    throw new ConflictException(`The invoice series ${formatInvoiceNo(prefix, fy, max)} is full: GST allows at most 16 characters (CGST Rule 46(b)). Choose a shorter invoice prefix in Settings to continue selling this year.`);
  }

  /**
   * Gives the sale its number unless it has one (a re-driven finish keeps it); sets it on `sale`.
   * `alsoSet`: the sale's progress fields, written in the same update as the number. `guard`:
   * conditions the sale must still meet (the saga's "pending and this attempt's"); false when it
   * no longer does (nothing written). Sales of one replica are numbered one after another (the
   * series' queue); replicas race through the index.
   */
  async assign(sale: SaleDoc, alsoSet: Partial<SaleDoc> = {}, guard: Record<string, unknown> = {}): Promise<boolean> {
    const gst = sale.gst;
    if (!gst || gst.serial > 0) return true;
    const prefix = sale.invoicePrefix || 'INV';
    const format = (fy: string, n: number) => {
      try {
        return formatInvoiceNo(prefix, fy, n);
      } catch (err) {
        if (err instanceof GstError) throw new ConflictException(err.message);
        throw err;
      }
    };
    let numbered: { serial: number; number: string };
    try {
      numbered = await this.series.assign(sale.companyId, gst.fy, { ...guard, saleId: sale.saleId }, alsoSet, format);
    } catch (err) {
      if (err instanceof SeriesDocumentGone && Object.keys(guard).length) return false;
      throw err;
    }
    Object.assign(sale, alsoSet);
    Object.assign(gst, { serial: numbered.serial, invoice_no: numbered.number });
    return true;
  }
}
