import { Global, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { Models, SaleSchema } from '../common/schemas';
import { Gstr1Service } from '../gst-returns/gstr1.service';
import { CreditNoteSchema, ReturnModels } from '../returns/schema';
import { FilingController } from './filing.controller';
import { FilingService } from './filing.service';
import { AmendmentSchema, FiledChunkSchema, FiledPeriodSchema, FilingModels } from './schema';

/**
 * Filed periods, QRMP and amendments. Global: checkout (back-dated sales), cancellation (a credit
 * note after filing) and the GST returns' controller (quarters, filed bytes) ask FilingService.
 * It builds GSTR-1 through its own Gstr1Service (stateless over the models).
 */
@Global()
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Models.Sale, schema: SaleSchema },
      { name: ReturnModels.CreditNote, schema: CreditNoteSchema },
      { name: FilingModels.FiledPeriod, schema: FiledPeriodSchema },
      { name: FilingModels.FiledChunk, schema: FiledChunkSchema },
      { name: FilingModels.Amendment, schema: AmendmentSchema },
    ]),
  ],
  controllers: [FilingController],
  providers: [Gstr1Service, FilingService],
  exports: [FilingService],
})
export class GstFilingModule {}
