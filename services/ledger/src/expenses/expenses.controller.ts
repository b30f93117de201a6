import { BadRequestException, Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import type { Expense, ExpenseCategoriesReply, ExpenseHistoryReply, ExpenseListReply, TokenClaims } from '@bahi/contracts';
import { CurrentUser, Positions, Tenant } from '@bahi/service-kit';
import { idParam, isCalendarDate, pageParam, today } from '../common';
import { body } from '../books/money-input';
import { ExpensesService } from './expenses.service';

function dateParam(v: unknown, name: string): string {
  if (v === undefined || v === '') return today();
  if (!isCalendarDate(v) || v.length !== 10) throw new BadRequestException(`${name} must be a date (YYYY-MM-DD).`);
  return v;
}

/**
 * Expenses (issue 29). Add, list, history, categories: managers, and staff while the company's
 * staff_expenses is on. Edit, delete and the categories' list: managers only.
 */
@Controller('expenses')
export class ExpensesController {
  constructor(private readonly expenses: ExpensesService) {}

  // Declared before ':id' so 'categories' is never read as an id.
  @Get('categories')
  async categories(@Tenant() companyId: number, @CurrentUser() user: TokenClaims): Promise<ExpenseCategoriesReply> {
    await this.expenses.mayRecord(companyId, user);
    return this.expenses.categoriesReply(companyId);
  }

  @Put('categories')
  @Positions('manager')
  setCategories(@Tenant() companyId: number, @Body() raw: unknown): Promise<ExpenseCategoriesReply> {
    return this.expenses.setCategories(companyId, raw);
  }

  /** GET /expenses?from&to&pageNo[&deleted=1] -> {list, noOfPages, total}; from/to default to today. */
  @Get()
  async list(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Query('from') from?: string, @Query('to') to?: string, @Query('pageNo') pageNo?: string, @Query('deleted') deleted?: string): Promise<ExpenseListReply> {
    const f = dateParam(from, 'from');
    const t = dateParam(to, 'to');
    if (f > t) throw new BadRequestException('from must be on or before to.');
    if (deleted !== undefined && deleted !== '0' && deleted !== '1') throw new BadRequestException('deleted must be 0 or 1.');
    const page = pageParam(pageNo);
    await this.expenses.mayRecord(companyId, user);
    return this.expenses.list(companyId, f, t, page, deleted === '1');
  }

  @Post()
  async add(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Body() raw: unknown): Promise<Expense> {
    await this.expenses.mayRecord(companyId, user);
    return this.expenses.add(companyId, user, raw);
  }

  @Get(':id/history')
  async history(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Param('id') id: string): Promise<ExpenseHistoryReply> {
    const n = idParam(id, 'id');
    await this.expenses.mayRecord(companyId, user);
    return this.expenses.history(companyId, n);
  }

  /** PUT /expenses/{id} {date, category, amount, payments, note, reason}: reason required. */
  @Put(':id')
  @Positions('manager')
  async edit(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Param('id') id: string, @Body() raw: unknown): Promise<Expense> {
    const n = idParam(id, 'id');
    const b = body(raw);
    const fields = await this.expenses.fields(companyId, b);
    return this.expenses.change(companyId, user, n, b.reason, fields);
  }

  /** DELETE /expenses/{id}?reason=: kept, marked deleted (out of lists and totals). */
  @Delete(':id')
  @Positions('manager')
  remove(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Param('id') id: string, @Query('reason') reason?: string): Promise<Expense> {
    return this.expenses.change(companyId, user, idParam(id, 'id'), reason, null);
  }
}
