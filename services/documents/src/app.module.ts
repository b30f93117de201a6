import { Module } from '@nestjs/common';
import { DocumentsCoreModule } from './core.module';
import { DocumentsController } from './documents/documents.controller';

@Module({
  imports: [DocumentsCoreModule.forRoot()],
  controllers: [DocumentsController],
})
export class AppModule {}
