import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { BahiServiceModule } from '@bahi/service-kit';
import { AccountsService } from './accounts/accounts.service';
import { EntrySourceDoc, EntrySourceSchema } from './accounts/entry-source.schema';
import { EntryDoc, EntrySchema } from './accounts/entry.schema';
import { PartyAccountDoc, PartyAccountSchema } from './accounts/party-account.schema';
import { PaymentsController } from './accounts/payments.controller';
import { CustomerDoc, CustomerSchema } from './customers/customer.schema';
import { CustomersController } from './customers/customers.controller';
import { CustomersService } from './customers/customers.service';
import { DistributorDoc, DistributorSchema } from './distributors/distributor.schema';
import { DistributorsController } from './distributors/distributors.controller';
import { DistributorsService } from './distributors/distributors.service';
import { DocumentsHandlers } from './documents/documents.handlers';
import { importControllers } from './imports';
import { LedgerHandlers } from './ledger.handlers';
import { LedgerEvents, LedgerHistoryHandlers } from './events/ledger-events';
import { DemoSeed } from './seed/demo.seed';
import { RemindersController } from './reminders/reminders.controller';
import { RemindersService } from './reminders/reminders.service';
import { booksControllers, booksProviders, booksSchemas } from './expenses';
import { RegisterController, RegisterHandlers, RegisterService, RegisterSessionDoc, RegisterSessionSchema } from './register';

@Module({
  imports: [
    BahiServiceModule.forRoot({ service: 'ledger' }),
    MongooseModule.forFeature([
      { name: CustomerDoc.name, schema: CustomerSchema },
      { name: DistributorDoc.name, schema: DistributorSchema },
      { name: EntryDoc.name, schema: EntrySchema },
      { name: EntrySourceDoc.name, schema: EntrySourceSchema },
      { name: PartyAccountDoc.name, schema: PartyAccountSchema },
      ...booksSchemas,
      { name: RegisterSessionDoc.name, schema: RegisterSessionSchema },
    ]),
  ],
  controllers: [CustomersController, DistributorsController, PaymentsController, LedgerHandlers, DocumentsHandlers, RemindersController, ...importControllers, LedgerHistoryHandlers, ...booksControllers, RegisterController, RegisterHandlers],
  providers: [LedgerEvents, CustomersService, DistributorsService, AccountsService, DemoSeed, RemindersService, ...booksProviders, RegisterService],
})
export class AppModule {}
