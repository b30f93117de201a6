import { Module } from '@nestjs/common';
import { BahiServiceModule } from '@bahi/service-kit';
import { Consumers } from './consumers';
import { Projector } from './projector';
import { ReportRowsHandler } from './report-rows.handler';
import { ReportsController } from './reports.controller';
import { ReportsService } from './reports.service';
import { TallyController } from './tally/tally.controller';
import { TallyExport } from './tally/tally.export';

@Module({
  imports: [BahiServiceModule.forRoot({ service: 'reports' })],
  controllers: [ReportsController, ReportRowsHandler, TallyController],
  providers: [Projector, Consumers, ReportsService, TallyExport],
})
export class AppModule {}
