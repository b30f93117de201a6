import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { BahiServiceModule } from '@bahi/service-kit';
import { CartsController } from './carts/carts.controller';
import { CartsService } from './carts/carts.service';
import { SeenCarts } from './carts/seen-carts';
import { PurchaseSourceHandlers } from './carts/purchase-source.handlers';
import { Companies } from './common/company';
import { Discounts } from './common/discounts';
import { Products } from './common/products';
import { CartSchema, DeliverySchema, EstimateSchema, Models, SaleSchema } from './common/schemas';
import { DeliveryController } from './delivery/delivery.controller';
import { EwaybillController } from './ewaybill/ewaybill.controller';
import { DocumentsHandlers } from './documents/documents.handlers';
import { EstimatesController } from './estimates/estimates.controller';
import { EstimatesService } from './estimates/estimates.service';
import { GstReturnsModule } from './gst-returns/gst-returns.module';
import { GstFilingModule } from './gst-filing/gst-filing.module';
import { CheckoutService } from './sales/checkout.service';
import { Customers } from './sales/customers';
import { InvoiceNumbers } from './sales/invoice-numbers';
import { SalesController } from './sales/sales.controller';
import { SalesService } from './sales/sales.service';
import { CancelService } from './returns/cancel.service';
import { ReturnsController } from './returns/returns.controller';
import { ReturnsService } from './returns/returns.service';
import { CreditNoteSchema, ReturnModels, SaleCancelSchema } from './returns/schema';
import { FillCartController } from './reorder/fill-cart.controller';
import { SalesExportsController } from './exports/exports.controller';
import { SalesEvents, SalesHistoryHandlers } from './events/sales-events';

@Module({
  imports: [
    BahiServiceModule.forRoot({ service: 'sales' }),
    MongooseModule.forFeature([
      { name: Models.Cart, schema: CartSchema },
      { name: Models.Estimate, schema: EstimateSchema },
      { name: Models.Sale, schema: SaleSchema },
      { name: Models.Delivery, schema: DeliverySchema },
      { name: ReturnModels.CreditNote, schema: CreditNoteSchema },
      { name: ReturnModels.SaleCancel, schema: SaleCancelSchema },
    ]),
    GstFilingModule,
    GstReturnsModule,
  ],
  controllers: [CartsController, SalesController, EstimatesController, DeliveryController, EwaybillController, PurchaseSourceHandlers, DocumentsHandlers, FillCartController, ReturnsController, SalesHistoryHandlers, SalesExportsController],
  providers: [Products, Customers, Companies, Discounts, InvoiceNumbers, SeenCarts, CartsService, CheckoutService, SalesService, EstimatesService, ReturnsService, CancelService, SalesEvents],
})
export class AppModule {}
