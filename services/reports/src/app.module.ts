import { Module } from '@nestjs/common';
import { BahiServiceModule } from '@bahi/service-kit';
import { Consumers } from './consumers';
import { Projector } from './projector';
import { ReportsController } from './reports.controller';
import { ReportsService } from './reports.service';

@Module({
  imports: [BahiServiceModule.forRoot({ service: 'reports' })],
  controllers: [ReportsController],
  providers: [Projector, Consumers, ReportsService],
})
export class AppModule {}
