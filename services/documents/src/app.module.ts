import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { DocumentsCoreModule } from './core.module';
import { DocumentsController } from './documents/documents.controller';
import { PrintController } from './print/print.controller';
import { PublicShareController, ShareController } from './share/share.controller';
import { ShareLinkDoc, ShareLinkSchema, ShareViewDoc, ShareViewSchema } from './share/share.schema';
import { ShareService } from './share/share.service';

@Module({
  imports: [
    DocumentsCoreModule.forRoot(),
    MongooseModule.forFeature([
      { name: ShareLinkDoc.name, schema: ShareLinkSchema },
      { name: ShareViewDoc.name, schema: ShareViewSchema },
    ]),
  ],
  controllers: [DocumentsController, ShareController, PublicShareController, PrintController],
  providers: [ShareService],
})
export class AppModule {}
