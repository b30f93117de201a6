import { BadRequestException, Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import type { CreateUserReply, SuccessMessageReply, TokenClaims, UserListReply } from '@bahi/contracts';
import { CurrentUser, intParam, Positions, Tenant } from '@bahi/service-kit';
import { userRow, UsersService } from './users.service';
import { CreateUserDto } from './users.dto';

/** A manager's own company users (Setting > Users). */
@Controller('users')
@Positions('manager')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  async list(@Tenant() companyId: number): Promise<UserListReply> {
    return { users: (await this.users.listOfCompany(companyId)).map(userRow) };
  }

  /** The new user must change the password the manager chose at first login. */
  @Post()
  async create(@Tenant() companyId: number, @Body() dto: CreateUserDto): Promise<CreateUserReply> {
    const user = await this.users.create({ ...dto, companyId, forceChange: true });
    return { success: true, id: user.id, message: `User ${user.name} created.` };
  }

  @Delete(':id')
  async remove(
    @Tenant() companyId: number,
    @CurrentUser() me: TokenClaims,
    @Param('id', intParam('id')) id: number,
  ): Promise<SuccessMessageReply> {
    if (id === me.uid) throw new BadRequestException('You cannot delete your own account.');
    await this.users.deleteOfCompany(companyId, id);
    return { success: true, message: 'User deleted.' };
  }
}
