import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { createHash, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { Model } from 'mongoose';
import { Subjects, type GstFiling } from '@bahi/contracts';
import { NatsClient, SequenceService, today } from '@bahi/service-kit';
import { Models, type SaleDoc } from '../common/schemas';
import { ReturnModels, type CreditNoteDoc, type ReturnableSale } from '../returns/schema';
import type { Who } from '../common/who';
import { Gstr1Service, type Gstr1Options } from '../gst-returns/gstr1.service';
import { parsePeriod, type ReturnPeriod } from '../gst-returns/period';
import { Sink } from '../gst-returns/sink';
import { checkChanges, correctedItems, itemsOf, jsonDate } from './amendments';
import { assertIffMonth, filingPeriod, nextLabel, parseQuarter, periodName, quarterOf, returnLabelOf, type FilingPeriod } from './periods';
import { type AmendmentDoc, type FiledChunkDoc, type FiledPeriodDoc, FilingModels } from './schema';

/** GST ARN of a filed return: 2 letters, the GSTIN's state code, MMYY of filing, 6 digits, a check character (15). */
const ARN = /^([A-Z]{2})(\d{2})(\d{2})(\d{2})(\d{6})([0-9A-Z])$/;
const CHUNK = 8 * 1024 * 1024;

/** A return's period; `b2bDays` (set when an IFF of the quarter was filed) are the days whose b2b and cdnr CSV rows the quarter reports. */
export type QuarterAware = ReturnPeriod & { b2bDays?: string[] };

export interface FilingCompany {
  gstin: string;
  filing: GstFiling;
}

/** Runs a streamed export into a buffer (to store it, or to add amendments to it). */
async function collect(build: (sink: Sink) => Promise<void>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const w = new Writable({
    write(c: Buffer | string, _enc, cb) {
      chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
      cb();
    },
  });
  const sink = new Sink(w);
  await build(sink);
  await sink.end();
  return Buffer.concat(chunks);
}

/** The IFF: b2b invoices and registered buyers' notes only (no b2cs, HSN or documents issued). */
const IFF_SECTIONS: Gstr1Options['sections'] = new Set(['b2b', 'cdnr']);

/**
 * Filing periods (QRMP quarters, IFF months, filed returns, amendments). A filed period's dates
 * are closed: no sale may be dated in it, a cancellation there becomes a credit note today, and
 * its GSTR-1 (or IFF) answers the bytes stored when it was marked filed.
 */
@Injectable()
export class FilingService {
  constructor(
    @InjectModel(FilingModels.FiledPeriod) private readonly filed: Model<FiledPeriodDoc>,
    @InjectModel(FilingModels.FiledChunk) private readonly chunks: Model<FiledChunkDoc>,
    @InjectModel(FilingModels.Amendment) private readonly amendments: Model<AmendmentDoc>,
    @InjectModel(Models.Sale) private readonly sales: Model<SaleDoc>,
    @InjectModel(ReturnModels.CreditNote) private readonly notes: Model<CreditNoteDoc>,
    private readonly gstr1: Gstr1Service,
    private readonly nats: NatsClient,
    private readonly seq: SequenceService,
  ) {}

  /** A regular taxpayer's GSTIN and filing frequency; 400 for a company not in GST mode. */
  async company(companyId: number): Promise<FilingCompany> {
    const c = await this.nats.send(Subjects.identity.companyDetails, { companyId });
    if ((c.tax_mode ?? 'simple') !== 'gst' || !c.gstin) throw new BadRequestException('GST returns are filed by regular taxpayers: switch the company to GST mode with its GSTIN in Setting first.');
    return { gstin: c.gstin, filing: c.gst_filing === 'quarterly' ? 'quarterly' : 'monthly' };
  }

  /**
   * The period GET /gst/gstr1 and /gst/gstr3b report: `period` (a month) for a monthly filer,
   * `quarter` for a quarterly one. A quarter's b2b and registered buyers' notes leave out the
   * months whose IFF was filed (they were reported there).
   */
  async returnPeriod(companyId: number, period: unknown, quarter: unknown, form: 'GSTR-1' | 'GSTR-3B'): Promise<QuarterAware> {
    // A company not in GST mode is refused by the returns' own check, with its sentence.
    const c = await this.nats.send(Subjects.identity.companyDetails, { companyId });
    const filing: GstFiling = c.gst_filing === 'quarterly' ? 'quarterly' : 'monthly';
    const given = (v: unknown) => v !== undefined && v !== '';
    if (given(period) && given(quarter)) throw new BadRequestException('Give either period (a month) or quarter, not both.');
    if (given(quarter)) {
      if (filing !== 'quarterly') throw new BadRequestException(`This company files ${form} every month: give period=YYYY-MM. A quarterly filer (QRMP) chooses it in Setting.`);
      const q = parseQuarter(quarter);
      if (form === 'GSTR-3B') return q;
      const iffFiled = await this.filed.find({ companyId, kind: 'iff', period: { $in: q.months.slice(0, 2) } }, { period: 1 }).lean();
      if (!iffFiled.length) return q;
      const reported = new Set(iffFiled.map((f) => f.period));
      return { ...q, b2bDays: q.days.filter((d) => !reported.has(d.slice(0, 7))) };
    }
    if (filing === 'quarterly') {
      const p = parsePeriod(period);
      const { label, index } = quarterOf(p.period);
      const iff = index < 2 ? `, or the month's IFF (GET /gst/iff?period=${p.period})` : '';
      throw new BadRequestException(`This company files ${form} quarterly (QRMP): ask for the quarter, quarter=${label}${form === 'GSTR-1' ? iff : ''}.`);
    }
    return parsePeriod(period);
  }

  /** GSTR-1 JSON of a period: as filed when it was, else streamed now with what it must leave out and the amendments it reports. */
  async writeGstr1(companyId: number, gstin: string, p: QuarterAware, out: Sink): Promise<void> {
    const stored = await this.storedBytes(companyId, p.period, 'gstr1');
    if (stored) return out.write(stored.toString('utf8'));
    return this.gstr1.json(companyId, gstin, p, out, await this.exportOptions(companyId, p));
  }

  /**
   * A quarter leaves out of b2b and cdnr the invoice and note numbers its filed IFFs reported
   * (read back from their stored JSON); a period writes the amendments it reports (b2ba, cdnra).
   */
  private async exportOptions(companyId: number, p: QuarterAware): Promise<Gstr1Options> {
    const opts: Gstr1Options = {};
    if (p.b2bDays) {
      const invoices = new Set<string>();
      const notes = new Set<string>();
      for (const f of await this.filed.find({ companyId, kind: 'iff', from: { $gte: p.from }, to: { $lte: p.to } }, { period: 1 }).lean()) {
        const iff = JSON.parse(((await this.storedBytes(companyId, f.period, 'iff')) ?? Buffer.from('{}')).toString('utf8')) as {
          b2b?: { inv: { inum: string }[] }[];
          cdnr?: { nt: { nt_num: string }[] }[];
        };
        for (const g of iff.b2b ?? []) for (const i of g.inv) invoices.add(i.inum);
        for (const g of iff.cdnr ?? []) for (const n of g.nt) notes.add(n.nt_num);
      }
      opts.reported = { invoices, notes };
    }
    const amend = await this.amendmentSections(companyId, p.period);
    if (amend) opts.extra = amend;
    return opts;
  }

  /** The days one section's CSV reads: a quarter's b2b and cdnr leave out the months a filed IFF reported. */
  csvPeriod(p: QuarterAware, sec: string): ReturnPeriod {
    return p.b2bDays && (sec === 'b2b' || sec === 'cdnr') ? { ...p, days: p.b2bDays } : p;
  }

  /** IFF (quarterly filers, first two months of a quarter): the month's b2b and registered buyers' notes only. */
  async writeIff(companyId: number, rawPeriod: unknown, out: Sink): Promise<{ gstin: string; fp: string }> {
    const { gstin, p } = await this.iffPeriod(companyId, rawPeriod);
    const stored = await this.storedBytes(companyId, p.period, 'iff');
    if (stored) await out.write(stored.toString('utf8'));
    else await this.gstr1.json(companyId, gstin, p, out, { sections: IFF_SECTIONS });
    return { gstin, fp: p.fp };
  }

  /** Checks an IFF request before any header goes out. */
  async iffPeriod(companyId: number, rawPeriod: unknown): Promise<{ gstin: string; p: ReturnPeriod }> {
    const { gstin, filing } = await this.company(companyId);
    if (filing !== 'quarterly') throw new BadRequestException('The IFF is for quarterly filers (QRMP); this company files GSTR-1 every month. Choose quarterly filing in Setting if it is under QRMP.');
    const p = parsePeriod(rawPeriod);
    assertIffMonth(p.period);
    return { gstin, p };
  }

  private async gstr1Bytes(companyId: number, gstin: string, p: QuarterAware): Promise<Buffer> {
    const opts = await this.exportOptions(companyId, p);
    return collect((s) => this.gstr1.json(companyId, gstin, p, s, opts));
  }

  private iffBytes(companyId: number, gstin: string, p: ReturnPeriod): Promise<Buffer> {
    return collect((s) => this.gstr1.json(companyId, gstin, p, s, { sections: IFF_SECTIONS }));
  }

  /** b2ba / cdnra of the amendments a period reports, grouped by recipient GSTIN; null when none. */
  private async amendmentSections(companyId: number, label: string): Promise<Record<string, unknown> | null> {
    const rows = (await this.amendments.find({ companyId, report_in: label }).sort({ ctin: 1, amendmentId: 1 }).lean()) as AmendmentDoc[];
    if (!rows.length) return null;
    const group = (kind: 'b2ba' | 'cdnra', key: 'inv' | 'nt') => {
      const out: { ctin: string; [k: string]: unknown }[] = [];
      for (const a of rows.filter((r) => r.kind === kind)) {
        const last = out[out.length - 1];
        if (last && last.ctin === a.ctin) (last[key] as unknown[]).push(a.row);
        else out.push({ ctin: a.ctin, [key]: [a.row] });
      }
      return out;
    };
    const b2ba = group('b2ba', 'inv');
    const cdnra = group('cdnra', 'nt');
    return { ...(b2ba.length ? { b2ba } : {}), ...(cdnra.length ? { cdnra } : {}) };
  }

  private async storedBytes(companyId: number, period: string, kind: 'gstr1' | 'iff'): Promise<Buffer | null> {
    const f = await this.filed.findOne({ companyId, period, kind }).lean();
    if (!f) return null;
    const parts = await this.chunks.find({ companyId, filingId: f.filingId }).sort({ n: 1 }).lean();
    // lean() hands back BSON Binary, not Buffer.
    const bytes = (d: unknown): Buffer => (Buffer.isBuffer(d) ? d : Buffer.from((d as { buffer: Uint8Array }).buffer));
    const buf = Buffer.concat(parts.map((c) => bytes(c.data)));
    if (buf.length !== f.bytes) throw new Error(`The stored return of ${period} is incomplete (${buf.length} of ${f.bytes} bytes).`);
    return buf;
  }

  /** POST /gst/periods/{period}/filed: the return's export as it is now is stored with the ARN; its dates close. */
  async markFiled(who: Who, rawPeriod: string, rawArn: unknown) {
    const { gstin, filing } = await this.company(who.companyId);
    const p: FilingPeriod = filingPeriod(rawPeriod, filing);
    const now = today();
    if (p.to >= now) throw new BadRequestException(`${periodName(p.label)} has not ended yet: its return can be filed from ${dayAfter(p.to)}.`);
    const arn = this.checkArn(rawArn, gstin, p, now);
    const earlier = await this.filed.findOne({ companyId: who.companyId, period: p.label }).lean();
    if (earlier) throw new ConflictException(`The ${earlier.kind === 'iff' ? 'IFF' : 'GSTR-1'} of ${periodName(p.label)} is already marked filed (ARN ${earlier.arn}).`);
    if (p.kind === 'iff') {
      const q = quarterOf(p.label).label;
      if (await this.filed.exists({ companyId: who.companyId, period: q })) throw new BadRequestException(`Quarter ${q} is already filed: its GSTR-1 reported ${periodName(p.label)}, so there is no IFF to file.`);
    }
    const period = p.kind === 'gstr1' && p.label.includes('Q') ? await this.returnPeriod(who.companyId, undefined, p.label, 'GSTR-1') : p;
    const bytes = p.kind === 'iff' ? await this.iffBytes(who.companyId, gstin, p) : await this.gstr1Bytes(who.companyId, gstin, period);
    const filingId = randomUUID();
    const parts: FiledChunkDoc[] = [];
    for (let n = 0; n * CHUNK < bytes.length || n === 0; n++) parts.push({ companyId: who.companyId, filingId, n, data: bytes.subarray(n * CHUNK, (n + 1) * CHUNK) });
    // Chunks first, then the record that makes them the period's: a crash between leaves only unreferenced chunks.
    await this.chunks.insertMany(parts);
    const doc: FiledPeriodDoc = {
      companyId: who.companyId,
      period: p.label,
      kind: p.kind,
      from: p.from,
      to: p.to,
      fp: p.fp,
      arn,
      filedAt: new Date(),
      filedBy: who.userId,
      filingId,
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
    try {
      await this.filed.create(doc);
    } catch (err) {
      await this.chunks.deleteMany({ companyId: who.companyId, filingId });
      if ((err as { code?: number }).code === 11000) throw new ConflictException(`${periodName(p.label)} was marked filed by someone else just now.`);
      throw err;
    }
    return { success: true as const, ...this.view(doc) };
  }

  private checkArn(raw: unknown, gstin: string, p: FilingPeriod, now: string): string {
    const arn = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
    const m = ARN.exec(arn);
    if (!m) throw new BadRequestException('arn must be the 15-character ARN the portal gave when the return was filed, e.g. AA271126012345X: 2 letters, the state code, the month and year of filing (MMYY), 6 digits and a check character.');
    if (m[2] !== gstin.slice(0, 2)) throw new BadRequestException(`The ARN's state code is ${m[2]}, but this company's GSTIN is of state ${gstin.slice(0, 2)}: check the ARN.`);
    const month = Number(m[3]);
    if (month < 1 || month > 12) throw new BadRequestException(`The ARN's month (${m[3]}) is not a month: check the ARN.`);
    const filedMonth = `20${m[4]}-${m[3]}`;
    if (filedMonth <= p.to.slice(0, 7)) throw new BadRequestException(`The ARN says it was filed in ${filedMonth}, before ${periodName(p.label)} ended: check the ARN.`);
    if (filedMonth > now.slice(0, 7)) throw new BadRequestException(`The ARN says it was filed in ${filedMonth}, which has not come yet: check the ARN.`);
    return arn;
  }

  private view(f: FiledPeriodDoc) {
    return { period: f.period, kind: f.kind, from: f.from, to: f.to, fp: f.fp, arn: f.arn, filed_at: f.filedAt.toISOString(), filed_by: f.filedBy, bytes: f.bytes, sha256: f.sha256 };
  }

  /** GET /gst/periods: the filing frequency and every filed period, newest first. */
  async list(companyId: number) {
    const { filing } = await this.company(companyId);
    const rows = (await this.filed.find({ companyId }).sort({ filedAt: -1 }).lean()) as FiledPeriodDoc[];
    return { gst_filing: filing, periods: rows.map((f) => this.view(f)) };
  }

  /** The filed period holding a date (a sale's or an invoice's), or null. */
  async filedPeriodOf(companyId: number, date: string): Promise<FiledPeriodDoc | null> {
    // The current month is never filed (a return is filed after its period ends).
    if (date.slice(0, 7) >= today().slice(0, 7)) return null;
    return this.filed.findOne({ companyId, from: { $lte: date }, to: { $gte: date } }).lean();
  }

  /** A sale dated in a filed period is refused: the return reporting that date is closed. */
  async assertOpen(companyId: number, date: string): Promise<void> {
    const f = await this.filedPeriodOf(companyId, date);
    if (f) {
      throw new BadRequestException(
        `The ${f.kind === 'iff' ? 'IFF' : 'GSTR-1'} of ${periodName(f.period)} is filed (ARN ${f.arn}): a sale cannot be dated ${date} any more. Date it today; a filed period is corrected only by a credit note or an amendment.`,
      );
    }
  }

  /** POST /gst/amendments: a corrected GSTIN, date or value of a filed b2b invoice (b2ba) or registered buyer's note (cdnra). */
  async amend(who: Who, body: { kind?: unknown; original_no?: unknown; changes?: unknown }) {
    const { filing } = await this.company(who.companyId);
    if (body.kind !== 'b2ba' && body.kind !== 'cdnra') throw new BadRequestException("kind must be b2ba (an invoice to a registered buyer) or cdnra (a credit note to one).");
    const no = typeof body.original_no === 'string' ? body.original_no.trim() : '';
    if (!no || no.length > 40) throw new BadRequestException(`original_no must be the ${body.kind === 'b2ba' ? 'invoice' : 'credit note'} number as printed, e.g. ${body.kind === 'b2ba' ? 'DT/26-27/0001' : 'CN/26-27/0001'}.`);
    const orig = body.kind === 'b2ba' ? await this.originalInvoice(who.companyId, no) : await this.originalNote(who.companyId, no);
    const f = await this.filedPeriodOf(who.companyId, orig.date);
    if (!f) throw new BadRequestException(`${no} is dated ${orig.date}, in a period not filed yet: it is reported as it is now, so correct it before filing (a credit note and a new invoice), not by an amendment.`);
    const changes = checkChanges(body.changes, { no, gstin: orig.gstin, date: orig.date, fy: orig.fy, rates: orig.rates });
    let report = returnLabelOf(orig.date, filing);
    for (let i = 0; i < 120 && (await this.filed.exists({ companyId: who.companyId, period: report, kind: 'gstr1' })); i++) report = nextLabel(report);
    const fixed = changes.items ? correctedItems(changes.items, orig.interState, body.kind === 'b2ba') : { itms: orig.itms, val: orig.val };
    const date = jsonDate(changes.date ?? orig.date);
    const row =
      body.kind === 'b2ba'
        ? { oinum: no, oidt: jsonDate(orig.date), inum: no, idt: date, val: fixed.val, pos: orig.pos, rchrg: 'N', inv_typ: 'R', itms: fixed.itms }
        : { ont_num: no, ont_dt: jsonDate(orig.date), ntty: 'C', nt_num: no, nt_dt: date, val: fixed.val, pos: orig.pos, rchrg: 'N', inv_typ: 'R', itms: fixed.itms };
    const doc: AmendmentDoc = {
      companyId: who.companyId,
      amendmentId: await this.seq.next(who.companyId, 'gstAmendment'),
      kind: body.kind,
      original_no: no,
      original_date: orig.date,
      original_period: f.period,
      changes,
      report_in: report,
      ctin: changes.gstin ?? orig.gstin,
      row,
      createdAt: new Date(),
      createdBy: who.userId,
    };
    try {
      await this.amendments.create(doc);
    } catch (err) {
      if ((err as { code?: number }).code === 11000) throw new ConflictException(`${no} already has an amendment in the return of ${periodName(report)}.`);
      throw err;
    }
    return { success: true as const, ...this.amendmentView(doc) };
  }

  private amendmentView(a: AmendmentDoc) {
    return { amendmentId: a.amendmentId, kind: a.kind, original_no: a.original_no, original_date: a.original_date, original_period: a.original_period, changes: a.changes, report_in: a.report_in, ctin: a.ctin, row: a.row };
  }

  async listAmendments(companyId: number) {
    await this.company(companyId);
    const rows = (await this.amendments.find({ companyId }).sort({ amendmentId: -1 }).lean()) as AmendmentDoc[];
    return { amendments: rows.map((a) => this.amendmentView(a)) };
  }

  private async originalInvoice(companyId: number, no: string) {
    const s = (await this.sales.findOne({ companyId, status: 'complete', 'gst.invoice_no': no }).lean()) as ReturnableSale | null;
    if (!s?.gst || s.gst.document !== 'tax-invoice') throw new NotFoundException(`No tax invoice numbered ${no}.`);
    if (s.cancelled) throw new BadRequestException(`Invoice ${no} is cancelled; a cancelled invoice is not amended.`);
    if (!s.gst.b2b || !s.gst.recipient.gstin) throw new BadRequestException(`Invoice ${no} went to an unregistered buyer: b2ba amends invoices to registered buyers (GSTR-1 Table 4).`);
    return {
      date: s.gst.invoice_date,
      fy: s.gst.fy,
      gstin: s.gst.recipient.gstin,
      pos: s.gst.place_of_supply,
      interState: s.gst.inter_state,
      rates: [...new Set(s.gst.lines.map((l) => Number(l.gst_rate)))].sort((a, b) => a - b),
      itms: itemsOf(s.gst.lines, s.gst.inter_state),
      val: Number(s.gst.invoice_value),
    };
  }

  private async originalNote(companyId: number, no: string) {
    const n = (await this.notes.findOne({ companyId, status: 'complete', credit_note_no: no }).lean()) as CreditNoteDoc | null;
    if (!n?.gst || n.gst.tax_mode !== 'gst') throw new NotFoundException(`No GST credit note numbered ${no}.`);
    if (!n.gst.gstin) throw new BadRequestException(`Credit note ${no} went to an unregistered buyer: cdnra amends notes to registered buyers (GSTR-1 Table 9B).`);
    const lines = n.lines.flatMap((l) => (l.gst ? [l.gst] : []));
    return {
      date: n.date,
      fy: n.fy,
      gstin: n.gst.gstin,
      pos: n.gst.place_of_supply,
      interState: n.gst.inter_state,
      rates: [...new Set(lines.map((l) => Number(l.gst_rate)))].sort((a, b) => a - b),
      itms: itemsOf(lines, n.gst.inter_state),
      val: Number(n.amount),
    };
  }
}

function dayAfter(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
