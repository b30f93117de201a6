import { Body, Controller, Get, HttpCode, HttpException, Post, Put, Query } from '@nestjs/common';
import type { AddDistributorReply, Distributor, GetAllDistributorsListReply, GetDistributorsListReply, HistoryReply } from '@bahi/contracts';
import { Subjects } from '@bahi/contracts';
import { describeError, NatsClient, Positions, Tenant } from '@bahi/service-kit';
import { checkPartyPin, withDefaultState, type PartyCompany } from '../gst-party';
import { idParam, pageParam, specFailure, validBody } from '../common';
import { AccountsService, num } from '../accounts/accounts.service';
import { DistributorDto, UpdateDistributorDto } from './distributors.dto';
import { DistributorsService } from './distributors.service';

async function doneOrErr<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const out = describeError(err);
    if (err instanceof HttpException && out.status < 500) throw specFailure(out.status, { done: false, err: out.message });
    throw err;
  }
}

/** Distributors (spec 001 §7). The distributor area is for managers only (spec 000 §6). */
@Controller()
@Positions('manager')
export class DistributorsController {
  constructor(
    private readonly distributors: DistributorsService,
    private readonly accounts: AccountsService,
    private readonly nats: NatsClient,
  ) {}

  /** The company's mode and state: a new party's default state (withDefaultState) and, in GST mode, its PIN (checkPartyPin). */
  private company(companyId: number): Promise<PartyCompany> {
    return this.nats.send(Subjects.identity.companyDetails, { companyId });
  }

  @Get('getAllDistributorsList')
  async all(@Tenant() companyId: number): Promise<GetAllDistributorsListReply> {
    const list = await this.distributors.all(companyId);
    return { allDistributorsList: list.map((d) => ({ id: d.distributor_id, distributor_id: d.distributor_id, name: d.name })) };
  }

  @Get('getDistributorsList')
  async list(@Tenant() companyId: number, @Query('pageNo') pageNo?: string): Promise<GetDistributorsListReply> {
    const { rows, noOfPages } = await this.distributors.page(companyId, pageParam(pageNo));
    const dues = await this.accounts.duesOf(companyId, 'distributor', rows.map((r) => r.distributor_id));
    return {
      distributorsList: rows.map((d) => ({ id: d.distributor_id, name: d.name, city_or_district: d.city_or_district, due: num(dues.get(d.distributor_id)!) })),
      noOfPages,
    };
  }

  @Get('getDistributorsDetails')
  async details(@Tenant() companyId: number, @Query('id') id?: string): Promise<{ data: Distributor & { due: number; dueDate: string | null } }> {
    const d = await this.distributors.get(companyId, idParam(id, 'id'));
    const { due, dueDate } = await this.accounts.dueOf(companyId, { kind: 'distributor', id: d.distributor_id });
    return { data: { ...d, due: num(due), dueDate } };
  }

  @Get('distributorsHistory')
  async history(@Tenant() companyId: number, @Query('id') id?: string, @Query('pageNo') pageNo?: string): Promise<HistoryReply> {
    const d = await this.distributors.get(companyId, idParam(id, 'id'));
    const page = await this.accounts.history(companyId, { kind: 'distributor', id: d.distributor_id }, pageParam(pageNo));
    return { ...page, name: d.name };
  }

  @Post('addDistributor')
  @HttpCode(200)
  add(@Tenant() companyId: number, @Body() body: unknown): Promise<AddDistributorReply> {
    return doneOrErr(async () => {
      const company = await this.company(companyId);
      const dto = await validBody(DistributorDto, withDefaultState(body, company), (m) => specFailure(400, { done: false, err: m }));
      checkPartyPin('distributor', dto, company);
      const distributor = await this.distributors.create(companyId, dto);
      return { done: true, id: distributor.distributor_id, distributor };
    });
  }

  @Put('addDistributor')
  update(@Tenant() companyId: number, @Body() body: unknown): Promise<AddDistributorReply> {
    return doneOrErr(async () => {
      const dto = await validBody(UpdateDistributorDto, body, (m) => specFailure(400, { done: false, err: m }));
      checkPartyPin('distributor', dto, await this.company(companyId));
      const distributor = await this.distributors.update(companyId, dto.id, dto);
      return { done: true, id: distributor.distributor_id, distributor };
    });
  }
}
