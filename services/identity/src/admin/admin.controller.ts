import { Body, ConflictException, Controller, Delete, ForbiddenException, Get, HttpCode, NotFoundException, Param, Post, Query } from '@nestjs/common';
import type {
  AdminCompanyDetailsReply,
  AdminCompanyListReply,
  CreateCompanyReply,
  SuccessMessageReply,
} from '@bahi/contracts';
import { Subjects } from '@bahi/contracts';
import { intParam, NatsClient, Positions } from '@bahi/service-kit';
import { SessionsService } from '../auth/sessions.service';
import { companyDetails, CompaniesService } from '../companies/companies.service';
import { escapeRegex, temporaryPassword, tenDigits } from '../common';
import { LogoService } from '../profile/logo.service';
import { userRow, UsersService } from '../users/users.service';
import { AdminUpdatePasswordDto, CompanyListQuery, CreateCompanyDto, UnlockQuery } from './admin.dto';

export const PAGE_SIZE = 10;
const idPipe = intParam('id');

/** Platform administration: only position admin. */
@Controller('admin')
@Positions('admin')
export class AdminController {
  constructor(
    private readonly companies: CompaniesService,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly logos: LogoService,
    private readonly nats: NatsClient,
  ) {}

  @Get('companyList')
  async list(@Query() q: CompanyListQuery): Promise<AdminCompanyListReply> {
    const pageNo = q.pageNo ?? 0;
    const filter = q.text ? { name: { $regex: escapeRegex(q.text), $options: 'i' } } : {};
    const total = await this.companies.model.countDocuments(filter);
    const rows = await this.companies.model.find(filter).sort({ id: 1 }).skip(pageNo * PAGE_SIZE).limit(PAGE_SIZE).lean();
    const ids = rows.map((c) => c.id);
    const people = await this.users.model.find({ companyId: { $in: ids } }).sort({ id: 1 }).lean();
    return {
      companyList: rows.map((c) => {
        const mine = people.filter((u) => u.companyId === c.id);
        const manager = mine.find((u) => u.position === 'manager') ?? null;
        return {
          id: c.id,
          name: c.name,
          add: [c.add1, c.add2].filter(Boolean).join(', '),
          mob: c.mob1,
          email: c.email,
          manager: manager?.name ?? null,
          managerEmail: manager?.email ?? null,
          users: mine.length,
        };
      }),
      noOfPages: Math.ceil(total / PAGE_SIZE),
    };
  }

  @Get('company/details/:id')
  async details(@Param('id', idPipe) id: number): Promise<AdminCompanyDetailsReply> {
    const company = await this.companies.model.findOne({ id }).lean();
    if (!company) {
      throw new NotFoundException({ statusCode: 404, company: null, users: [], error: `Company ${id} not found.`, message: `Company ${id} not found.` });
    }
    const users = await this.users.listOfCompany(id);
    return { company: companyDetails(company), users: users.map(userRow), error: null };
  }

  /**
   * Creates the company and its manager with a temporary password, returned once here; the
   * manager must change it at first login.
   */
  @Post('createCompany')
  async create(@Body() dto: CreateCompanyDto): Promise<CreateCompanyReply> {
    if (await this.users.model.exists({ email: dto.mEmail })) {
      throw new ConflictException({ statusCode: 409, success: false, message: `A user with the e-mail ${dto.mEmail} already exists.` });
    }
    const company = await this.companies.create({ name: dto.cName, add1: dto.cAdd, mob1: tenDigits(dto.cMob) });
    const managerPassword = temporaryPassword();
    try {
      const manager = await this.users.create({
        name: dto.mName,
        email: dto.mEmail,
        password: managerPassword,
        position: 'manager',
        companyId: company.id,
        forceChange: true,
      });
      return { success: true, message: 'Company created successfully!', companyId: company.id, managerId: manager.id, managerPassword };
    } catch (err) {
      // No company without its manager.
      await this.companies.model.deleteOne({ id: company.id });
      throw err;
    }
  }

  /**
   * Deletes the company, its users and logo, and revokes their tokens. Its records in other
   * services stay but can no longer be reached; identity.company.deleted lets them purge.
   */
  @Delete('company/delete/:id')
  async remove(@Param('id', idPipe) id: number): Promise<SuccessMessageReply> {
    const company = await this.companies.model.findOne({ id }).lean();
    if (!company) throw new NotFoundException({ statusCode: 404, success: false, message: `Company ${id} not found.` });
    await this.users.model.deleteMany({ companyId: id });
    await this.companies.model.deleteOne({ id });
    await this.logos.remove(company.logo);
    await this.sessions.revokeCompany(id);
    await this.nats.emit(Subjects.identity.companyDeleted, { companyId: id });
    return { success: true, message: 'Company deleted successfully!' };
  }

  /** Sets a company user's password: forced change at next login, unlocked, tokens revoked. */
  @Post('user/update-password')
  @HttpCode(200)
  async setPassword(@Body() dto: AdminUpdatePasswordDto): Promise<SuccessMessageReply> {
    const user = await this.users.findByEmail(dto.email);
    if (!user) throw new NotFoundException({ statusCode: 404, success: false, message: `No user with the e-mail ${dto.email}.` });
    if (user.position === 'admin') {
      throw new ForbiddenException({ statusCode: 403, success: false, message: 'A platform administrator changes their own password from Update Password.' });
    }
    await this.users.setPassword(user, dto.newPassword, { byAdmin: true });
    return { success: true, message: 'Password updated successfully!' };
  }

  /** Unlocks a user locked by failed logins (e-mail in the query, as the spec calls it). */
  @Post('user/unlock')
  @HttpCode(200)
  async unlock(@Query() q: UnlockQuery): Promise<SuccessMessageReply> {
    await this.users.unlock(q.email);
    return { success: true, message: 'User unlocked successfully!' };
  }
}
