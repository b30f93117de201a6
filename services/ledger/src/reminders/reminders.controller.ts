import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, Max, Min } from 'class-validator';
import type { CustomersRemindedReply } from '@bahi/contracts';
import { Limits, Tenant } from '@bahi/service-kit';
import { RemindersService } from './reminders.service';

export class RemindedDto {
  @IsArray({ message: 'clientIds must be a list of customer ids.' })
  @ArrayMinSize(1, { message: 'clientIds must name at least one customer.' })
  @ArrayMaxSize(1000, { message: 'clientIds can name at most 1000 customers.' })
  @IsInt({ each: true, message: 'Every id of clientIds must be a whole number.' })
  @Min(1, { each: true, message: 'Every id of clientIds must be 1 or more.' })
  @Max(Limits.maxId, { each: true, message: `Every id of clientIds must be at most ${Limits.maxId}.` })
  clientIds!: number[];
}

/** POST /customers/reminded: the customer list's Remind records when each customer was reminded. Every position. */
@Controller()
export class RemindersController {
  constructor(private readonly reminders: RemindersService) {}

  @Post('customers/reminded')
  @HttpCode(200)
  async reminded(@Tenant() companyId: number, @Body() body: RemindedDto): Promise<CustomersRemindedReply> {
    const at = await this.reminders.reminded(companyId, body.clientIds);
    return { done: true, lastRemindedAt: at.toISOString() };
  }
}
