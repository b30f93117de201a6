import { BadRequestException, Body, Controller, Get, HttpCode, HttpException, Post, Put, Query } from '@nestjs/common';
import type {
  AddClientFormReply,
  AddClientReply,
  Customer,
  GetAllClientsListReply,
  GetClientsDetailsReply,
  GetClientsListReply,
  HistoryReply,
  OverdueClientsReply,
} from '@bahi/contracts';
import { Subjects } from '@bahi/contracts';
import { describeError, NatsClient, Tenant } from '@bahi/service-kit';
import { checkPartyPin, withDefaultState, type PartyCompany } from '../gst-party';
import { idParam, pageParam, specFailure, validBody } from '../common';
import { AccountsService, num } from '../accounts/accounts.service';
import { CustomerDto, UpdateCustomerDto } from './customers.dto';
import { CustomersService } from './customers.service';
import { RemindersService } from '../reminders/reminders.service';

/** Re-throws any failure in the body the spec gives this call, keeping its status. */
async function withSpecBody<T>(fn: () => Promise<T>, body: (msg: string) => Record<string, unknown>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const out = describeError(err);
    if (err instanceof HttpException && out.status < 500) throw specFailure(out.status, body(out.message));
    throw err;
  }
}

/** Customers (spec 000 §7): search, due, add/edit, lists, details, account history. Every position. */
@Controller()
export class CustomersController {
  constructor(
    private readonly customers: CustomersService,
    private readonly accounts: AccountsService,
    private readonly reminders: RemindersService,
    private readonly nats: NatsClient,
  ) {}

  /** The company's mode and state: a new party's default state (withDefaultState) and, in GST mode, its PIN (checkPartyPin). */
  private company(companyId: number): Promise<PartyCompany> {
    return this.nats.send(Subjects.identity.companyDetails, { companyId });
  }

  /** GET /getCustomerList/?text — matches name or mobile from 3 characters; shorter text finds nothing. */
  @Get('getCustomerList')
  search(@Tenant() companyId: number, @Query('text') text?: string): Promise<Customer[]> {
    if (typeof text === 'string' && text.length > 100) throw new BadRequestException('text can have at most 100 characters.');
    return this.customers.search(companyId, typeof text === 'string' ? text : '');
  }

  /** GET /getClientDue?custId — the due a bill carries (the walk-in's is 0). */
  @Get('getClientDue')
  async due(@Tenant() companyId: number, @Query('custId') custId?: string): Promise<{ due: number }> {
    const c = await this.customers.get(companyId, idParam(custId, 'custId'));
    if (c.walkIn) return { due: 0 };
    return { due: num((await this.accounts.dueOf(companyId, { kind: 'customer', id: c.client_id })).due) };
  }

  @Post('clients/addClient')
  @HttpCode(200)
  add(@Tenant() companyId: number, @Body() body: unknown): Promise<AddClientReply> {
    const fail = (err: string) => ({ done: false, err });
    return withSpecBody(async () => {
      const company = await this.company(companyId);
      const dto = await validBody(CustomerDto, withDefaultState(body, company), (m) => specFailure(400, fail(m)));
      checkPartyPin('customer', dto, company);
      const customer = await this.customers.create(companyId, dto);
      return { done: true, id: customer.client_id, customer };
    }, fail);
  }

  @Put('clients/addClient')
  update(@Tenant() companyId: number, @Body() body: unknown): Promise<AddClientReply> {
    const fail = (err: string) => ({ done: false, err });
    return withSpecBody(async () => {
      const dto = await validBody(UpdateCustomerDto, body, (m) => specFailure(400, fail(m)));
      checkPartyPin('customer', dto, await this.company(companyId));
      const customer = await this.customers.update(companyId, dto.id, dto);
      return { done: true, id: customer.client_id, customer };
    }, fail);
  }

  /** POST /clientList/add-client — the customer list page's form action. */
  @Post('clientList/add-client')
  @HttpCode(200)
  addForm(@Tenant() companyId: number, @Body() body: unknown): Promise<AddClientFormReply> {
    const fail = (err: string) => ({ success: false, err });
    return withSpecBody(async () => {
      const company = await this.company(companyId);
      const dto = await validBody(CustomerDto, withDefaultState(body, company), (m) => specFailure(400, fail(m)));
      checkPartyPin('customer', dto, company);
      const customer = await this.customers.create(companyId, dto);
      return { success: true, id: customer.client_id, customer };
    }, fail);
  }

  @Get('getAllClientsList')
  async all(@Tenant() companyId: number): Promise<GetAllClientsListReply> {
    const list = await this.customers.all(companyId);
    return { allClientsList: list.map((c) => ({ id: c.client_id, client_id: c.client_id, name: c.name, mobile_no: c.mobile_no })) };
  }

  /** `overdue=1`: only customers past their due date, most days overdue first (share.ts OverdueClientsReply). */
  @Get('getClientsList')
  async list(@Tenant() companyId: number, @Query('pageNo') pageNo?: string, @Query('overdue') overdue?: string): Promise<GetClientsListReply | OverdueClientsReply> {
    if (overdue !== undefined && overdue !== '0' && overdue !== '1') throw new BadRequestException('overdue must be 0 or 1.');
    if (overdue === '1') return this.reminders.overdue(companyId, pageParam(pageNo));
    const { rows, noOfPages } = await this.customers.page(companyId, pageParam(pageNo));
    const dues = await this.accounts.duesOf(companyId, 'customer', rows.map((r) => r.client_id));
    return {
      clientsList: rows.map((c) => ({ id: c.client_id, name: c.name, mobile_no: c.mobile_no, city_or_district: c.city_or_district, due: num(dues.get(c.client_id)!) })),
      noOfPages,
    };
  }

  @Get('getClientsDetails')
  async details(@Tenant() companyId: number, @Query('id') id?: string): Promise<GetClientsDetailsReply> {
    const c = await this.customers.get(companyId, idParam(id, 'id'));
    const { due, dueDate } = await this.accounts.dueOf(companyId, { kind: 'customer', id: c.client_id });
    return { data: { ...c, due: c.walkIn ? 0 : num(due), dueDate } };
  }

  @Get('getAllClientsHistory')
  async history(@Tenant() companyId: number, @Query('id') id?: string, @Query('pageNo') pageNo?: string): Promise<HistoryReply> {
    const c = await this.customers.get(companyId, idParam(id, 'id'));
    const page = await this.accounts.history(companyId, { kind: 'customer', id: c.client_id }, pageParam(pageNo));
    return { ...page, name: c.name };
  }
}
