import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { BahiServiceModule } from '@bahi/service-kit';
import { AccountantController } from './accountant/accountant.controller';
import { AccountantLedgers, AccountantLedgersSchema } from './accountant/accountant.schema';
import { AdminController } from './admin/admin.controller';
import { ApproverHandlers } from './auth/approvers.handlers';
import { AuthController } from './auth/auth.controller';
import { AuthService } from './auth/auth.service';
import { IdentityHandlers } from './auth/identity.handlers';
import { PasswordsService } from './auth/passwords.service';
import { RevocationEntry, RevocationEntrySchema, Session, SessionSchema } from './auth/session.schema';
import { SessionsService } from './auth/sessions.service';
import { Company, CompanySchema } from './companies/company.schema';
import { CompaniesService } from './companies/companies.service';
import { LogoService } from './profile/logo.service';
import { ProfileController } from './profile/profile.controller';
import { PrintersController } from './printers/printers.controller';
import { CompanyPrinters, CompanyPrintersSchema } from './printers/printers.schema';
import { SeedService } from './seed/seed.service';
import { PublicAddressController } from './settings/public-address.controller';
import { User, UserSchema } from './users/user.schema';
import { UsersController } from './users/users.controller';
import { UsersService } from './users/users.service';

@Module({
  imports: [
    BahiServiceModule.forRoot({ service: 'identity' }),
    MongooseModule.forFeature([
      { name: Company.name, schema: CompanySchema },
      { name: User.name, schema: UserSchema },
      { name: Session.name, schema: SessionSchema },
      { name: RevocationEntry.name, schema: RevocationEntrySchema },
      { name: CompanyPrinters.name, schema: CompanyPrintersSchema },
      { name: AccountantLedgers.name, schema: AccountantLedgersSchema },
    ]),
  ],
  controllers: [AuthController, ProfileController, AdminController, UsersController, IdentityHandlers, ApproverHandlers, PrintersController, PublicAddressController, AccountantController],
  providers: [SessionsService, PasswordsService, AuthService, CompaniesService, UsersService, LogoService, SeedService],
})
export class AppModule {}
