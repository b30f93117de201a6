import { Module } from '@nestjs/common';
import { BahiServiceModule } from '@bahi/service-kit';
import { Consumers } from './consumers';
import { Projector } from './projector';
import { ReportRowsHandler } from './report-rows.handler';
import { ReportsController } from './reports.controller';
import { ReportsService } from './reports.service';

@Module({
  imports: [BahiServiceModule.forRoot({ service: 'reports' })],
  controllers: [ReportsController, ReportRowsHandler],
  providers: [Projector, Consumers, ReportsService],
})
export class AppModule {}
