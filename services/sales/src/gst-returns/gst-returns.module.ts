import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { Models, SaleSchema } from '../common/schemas';
import { CreditNoteSchema, ReturnModels } from '../returns/schema';
import { GstReturnsController } from './gst-returns.controller';
import { Gstr1Service } from './gstr1.service';
import { Gstr3bService } from './gstr3b.service';

/** GET /gst/gstr1 and /gst/gstr3b: read-only over the sales' frozen GST blocks and the credit notes'. */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Models.Sale, schema: SaleSchema },
      { name: ReturnModels.CreditNote, schema: CreditNoteSchema },
    ]),
  ],
  controllers: [GstReturnsController],
  providers: [Gstr1Service, Gstr3bService],
})
export class GstReturnsModule {}
