import { BadRequestException, Body, Controller, Get, HttpCode, Inject, NotFoundException, type OnModuleInit, Param, Post, Query, Res, UploadedFiles, UseInterceptors } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { AnyFilesInterceptor } from '@nestjs/platform-express';
import type { Connection, Model } from 'mongoose';
import type { Response } from 'express';
import { ImportMaxBytes, ImportMaxRows, ImportSessionTtlHours, Subjects, type HistoryRow, type ImportKind, type OverdueClientRow } from '@bahi/contracts';
import { inTransaction, LOGGER, NatsClient, Positions, SequenceService, Tenant } from '@bahi/service-kit';
import { formatParam, importHttp, ImportSessions, sendTable, uploadedFile, type Column, type ImportHandler, type TableFormat, type Upload } from '@bahi/tabular';
import { AccountsService } from '../accounts/accounts.service';
import { EntryDoc } from '../accounts/entry.schema';
import { CustomerDoc } from '../customers/customer.schema';
import { DistributorDoc } from '../distributors/distributor.schema';
import { idParam } from '../common';
import { RemindersService } from '../reminders/reminders.service';
import { partyGst, type PartyCompany } from '../gst-party';
import { customerImportHandler, distributorImportHandler } from './parties.import';


/** Customers and distributors from CSV or XLSX (upload, validate, run, progress); managers only, like every import. */
@Controller()
@Positions('manager')
export class PartyImportsController implements OnModuleInit {
  private readonly sessions: ImportSessions;
  private readonly handlers: Record<Exclude<ImportKind, 'products'>, ImportHandler<never, never>>;

  constructor(
    @InjectConnection() conn: Connection,
    @InjectModel(CustomerDoc.name) customers: Model<CustomerDoc>,
    @InjectModel(DistributorDoc.name) distributors: Model<DistributorDoc>,
    @InjectModel(EntryDoc.name) entries: Model<EntryDoc>,
    seq: SequenceService,
    nats: NatsClient,
    @Inject(LOGGER) logger: { error: (o: unknown, m?: string) => void },
  ) {
    this.sessions = new ImportSessions(conn.db as never, {
      inTransaction: (fn) => inTransaction(conn, fn as never),
      maxRows: ImportMaxRows,
      ttlMs: ImportSessionTtlHours * 3600_000,
      log: (msg, err) => logger.error({ err }, msg),
    });
    const models = { customers, distributors, entries, seq, company: (companyId: number) => nats.send(Subjects.identity.companyDetails, { companyId }) as Promise<PartyCompany> };
    this.handlers = { customers: customerImportHandler(models) as never, distributors: distributorImportHandler(models) as never };
  }

  async onModuleInit() {
    await this.sessions.init();
  }

  private handler(kind: 'customers' | 'distributors') {
    return this.handlers[kind];
  }

  private upload(companyId: number, kind: 'customers' | 'distributors', files: Upload[] | undefined) {
    const file = uploadedFile(files);
    return this.sessions.upload(companyId, this.handler(kind), file.originalname, file.buffer).catch(importHttp);
  }

  // Each kind has its own paths (the gateway's route table names them one by one).
  @Post('imports/customers')
  @HttpCode(200)
  @UseInterceptors(AnyFilesInterceptor({ limits: { fileSize: ImportMaxBytes, files: 1, fields: 5 } }))
  uploadCustomers(@Tenant() companyId: number, @UploadedFiles() files: Upload[] | undefined) {
    return this.upload(companyId, 'customers', files);
  }

  @Post('imports/distributors')
  @HttpCode(200)
  @UseInterceptors(AnyFilesInterceptor({ limits: { fileSize: ImportMaxBytes, files: 1, fields: 5 } }))
  uploadDistributors(@Tenant() companyId: number, @UploadedFiles() files: Upload[] | undefined) {
    return this.upload(companyId, 'distributors', files);
  }

  @Get('imports/customers/:id')
  customerStatus(@Tenant() companyId: number, @Param('id') id: string) {
    return this.sessions.status(companyId, 'customers', id).catch(importHttp);
  }

  @Get('imports/distributors/:id')
  distributorStatus(@Tenant() companyId: number, @Param('id') id: string) {
    return this.sessions.status(companyId, 'distributors', id).catch(importHttp);
  }

  @Post('imports/customers/:id/validate')
  @HttpCode(200)
  validateCustomers(@Tenant() companyId: number, @Param('id') id: string, @Body() body: Record<string, unknown>) {
    return this.sessions.validate(companyId, this.handler('customers'), id, body?.mapping).catch(importHttp);
  }

  @Post('imports/distributors/:id/validate')
  @HttpCode(200)
  validateDistributors(@Tenant() companyId: number, @Param('id') id: string, @Body() body: Record<string, unknown>) {
    return this.sessions.validate(companyId, this.handler('distributors'), id, body?.mapping).catch(importHttp);
  }

  @Post('imports/customers/:id/run')
  @HttpCode(202)
  runCustomers(@Tenant() companyId: number, @Param('id') id: string, @Body() body: Record<string, unknown>) {
    return this.sessions.run(companyId, this.handler('customers'), id, body?.mapping, body?.mode).catch(importHttp);
  }

  @Post('imports/distributors/:id/run')
  @HttpCode(202)
  runDistributors(@Tenant() companyId: number, @Param('id') id: string, @Body() body: Record<string, unknown>) {
    return this.sessions.run(companyId, this.handler('distributors'), id, body?.mapping, body?.mode).catch(importHttp);
  }
}

interface WithDue<T> {
  doc: T;
  due: string;
}

const ADDRESS_COLUMNS = <T extends { due: string; doc: { address_line_1: string; address_line_2: string; city_or_district: string; state: string; gstin: string | null; country: string; postal_code: string } }>(): Column<T>[] => [
  { header: 'Address line 1', width: 28, value: (r) => r.doc.address_line_1 },
  { header: 'Address line 2', width: 20, value: (r) => r.doc.address_line_2 },
  { header: 'City or district', width: 16, value: (r) => r.doc.city_or_district },
  { header: 'State', width: 16, value: (r) => partyGst(r.doc).state },
  { header: 'PIN code', value: (r) => r.doc.postal_code },
  { header: 'Country', value: (r) => r.doc.country },
  { header: 'GSTIN', width: 17, value: (r) => r.doc.gstin ?? '' },
  { header: 'Due', type: 'number', numFmt: '0.00', value: (r) => r.due },
];

/**
 * GET /export/customers and /export/distributors ?format=csv|xlsx: every row of the list (its
 * order: newest first), each with its due, read in batches from a cursor. Customers: every
 * position, as the list; distributors: managers, as the list.
 */
@Controller()
export class PartyExportsController {
  constructor(
    @InjectModel(CustomerDoc.name) private readonly customers: Model<CustomerDoc>,
    @InjectModel(DistributorDoc.name) private readonly distributors: Model<DistributorDoc>,
    private readonly accounts: AccountsService,
    private readonly reminders: RemindersService,
  ) {}

  /** Rows of a cursor with their dues, 500 at a time (one dues query a batch). */
  private async *withDues<T>(cursor: AsyncIterable<T>, kind: 'customer' | 'distributor', companyId: number, idOf: (d: T) => number): AsyncGenerator<WithDue<T>> {
    let batch: T[] = [];
    const flush = async function* (this: PartyExportsController) {
      const dues = await this.accounts.duesOf(companyId, kind, batch.map(idOf));
      for (const d of batch) yield { doc: d, due: (dues.get(idOf(d)) ?? 0).toFixed(2) };
      batch = [];
    }.bind(this);
    for await (const d of cursor) {
      batch.push(d);
      if (batch.length >= 500) yield* flush();
    }
    if (batch.length) yield* flush();
  }

  @Get('export/customers')
  async customerList(@Tenant() companyId: number, @Query() q: Record<string, unknown>, @Res() res: Response) {
    const format = formatParam(q.format);
    if (q.overdue !== undefined && q.overdue !== '0' && q.overdue !== '1') throw new BadRequestException('overdue must be 0 or 1.');
    if (q.overdue === '1') return this.overdueList(companyId, format, res);
    const cursor = this.customers.find({ companyId, walkIn: false }).sort({ client_id: -1 }).lean().cursor() as AsyncIterable<CustomerDoc>;
    const columns: Column<WithDue<CustomerDoc>>[] = [
      { header: 'Customer ID', type: 'number', value: (r) => r.doc.client_id },
      { header: 'Name', width: 24, value: (r) => r.doc.name },
      { header: 'Mobile', width: 12, value: (r) => r.doc.mobile_no },
      ...ADDRESS_COLUMNS<WithDue<CustomerDoc>>(),
    ];
    await sendTable(res, format, 'customers', columns, this.withDues(cursor, 'customer', companyId, (d) => d.client_id), 'Customers');
  }

  /** The Overdue filter's list: every overdue customer, most days overdue first, as the list shows them. */
  private async overdueList(companyId: number, format: TableFormat, res: Response) {
    const columns: Column<OverdueClientRow>[] = [
      { header: 'Customer ID', type: 'number', value: (r) => r.id },
      { header: 'Name', width: 24, value: (r) => r.name },
      { header: 'Mobile', width: 12, value: (r) => r.mobile_no },
      { header: 'City or district', width: 16, value: (r) => r.city_or_district },
      { header: 'Due', type: 'number', numFmt: '0.00', value: (r) => r.due.toFixed(2) },
      { header: 'Due date', type: 'date', value: (r) => r.due_date },
      { header: 'Days overdue', type: 'number', value: (r) => r.days_overdue },
      { header: 'Last reminded', width: 20, value: (r) => r.last_reminded_at ?? '' },
    ];
    await sendTable(res, format, 'overdue-customers', columns, await this.reminders.overdueRows(companyId), 'Overdue');
  }

  /** A party's account (the history list, oldest first, with the running due): one party's rows, read whole. */
  private historyColumns(): Column<HistoryRow>[] {
    return [
      { header: 'Date', type: 'date', value: (r) => r.date },
      { header: 'Type', width: 22, value: (r) => r.type },
      { header: 'Ref', type: 'number', value: (r) => r.ref },
      { header: 'Document no', width: 18, value: (r) => r.doc_no ?? '' },
      { header: 'Amount', type: 'number', numFmt: '0.00', value: (r) => r.amount.toFixed(2) },
      { header: 'Paid', type: 'number', numFmt: '0.00', value: (r) => r.paid.toFixed(2) },
      { header: 'Due after', type: 'number', numFmt: '0.00', value: (r) => r.balance.toFixed(2) },
      { header: 'Due date', type: 'date', value: (r) => r.due_date },
    ];
  }

  /**
   * GET /export/ledgers?format=: every party's account in one sheet (customers, then distributors,
   * each oldest first with its running due), for "Download all data"; managers, as distributors' accounts.
   */
  @Get('export/ledgers')
  @Positions('manager')
  async allLedgers(@Tenant() companyId: number, @Query() q: Record<string, unknown>, @Res() res: Response) {
    const format = formatParam(q.format);
    type Row = HistoryRow & { party: string; partyId: number; name: string };
    const accounts = this.accounts;
    const customers = this.customers.find({ companyId, walkIn: false }, { client_id: 1, name: 1 }).sort({ client_id: 1 }).lean().cursor() as AsyncIterable<CustomerDoc>;
    const distributors = this.distributors.find({ companyId }, { distributor_id: 1, name: 1 }).sort({ distributor_id: 1 }).lean().cursor() as AsyncIterable<DistributorDoc>;
    // One party's rows at a time: memory stays one account, however many parties.
    async function* rows(): AsyncIterable<Row> {
      for await (const c of customers) {
        for (const r of await accounts.allRows(companyId, { kind: 'customer', id: c.client_id })) yield { ...r, party: 'Customer', partyId: c.client_id, name: c.name };
      }
      for await (const d of distributors) {
        for (const r of await accounts.allRows(companyId, { kind: 'distributor', id: d.distributor_id })) yield { ...r, party: 'Distributor', partyId: d.distributor_id, name: d.name };
      }
    }
    const columns: Column<Row>[] = [
      { header: 'Party', width: 12, value: (r) => r.party },
      { header: 'Party ID', type: 'number', value: (r) => r.partyId },
      { header: 'Name', width: 24, value: (r) => r.name },
      ...this.historyColumns(),
    ];
    await sendTable(res, format, 'ledgers', columns, rows(), 'Ledgers');
  }

  /** GET /export/customerHistory?id=&format=: a customer's account (every position, as its list). */
  @Get('export/customerHistory')
  async customerHistory(@Tenant() companyId: number, @Query() q: Record<string, unknown>, @Res() res: Response) {
    const format = formatParam(q.format);
    const id = idParam(q.id, 'id');
    const c = await this.customers.findOne({ companyId, client_id: id }, { client_id: 1 }).lean();
    if (!c) throw new NotFoundException(`Customer ${id} not found.`);
    const rows = await this.accounts.allRows(companyId, { kind: 'customer', id });
    await sendTable(res, format, `customer-${id}-account`, this.historyColumns(), rows, 'Account');
  }

  /** GET /export/distributorHistory?id=&format=: a distributor's account (managers, as its list). */
  @Get('export/distributorHistory')
  @Positions('manager')
  async distributorHistory(@Tenant() companyId: number, @Query() q: Record<string, unknown>, @Res() res: Response) {
    const format = formatParam(q.format);
    const id = idParam(q.id, 'id');
    const d = await this.distributors.findOne({ companyId, distributor_id: id }, { distributor_id: 1 }).lean();
    if (!d) throw new NotFoundException(`Distributor ${id} not found.`);
    const rows = await this.accounts.allRows(companyId, { kind: 'distributor', id });
    await sendTable(res, format, `distributor-${id}-account`, this.historyColumns(), rows, 'Account');
  }

  @Get('export/distributors')
  @Positions('manager')
  async distributorList(@Tenant() companyId: number, @Query() q: Record<string, unknown>, @Res() res: Response) {
    const format = formatParam(q.format);
    const cursor = this.distributors.find({ companyId }).sort({ distributor_id: -1 }).lean().cursor() as AsyncIterable<DistributorDoc>;
    const columns: Column<WithDue<DistributorDoc>>[] = [
      { header: 'Distributor ID', type: 'number', value: (r) => r.doc.distributor_id },
      { header: 'Name', width: 24, value: (r) => r.doc.name },
      ...ADDRESS_COLUMNS<WithDue<DistributorDoc>>(),
      { header: 'Officers', width: 24, value: (r) => (r.doc.officers ?? []).map((o) => (o.mobile ? `${o.name} (${o.mobile})` : o.name)).join('; ') },
    ];
    await sendTable(res, format, 'distributors', columns, this.withDues(cursor, 'distributor', companyId, (d) => d.distributor_id), 'Distributors');
  }
}
