import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { BahiServiceModule } from '@bahi/service-kit';
import { CategoriesController } from './categories/categories.controller';
import { DocumentsHandlers } from './documents/documents.handlers';
import { ImagesController } from './images/images.controller';
import { ImagesService } from './images/images.service';
import { importControllers } from './imports';
import { ProductsController } from './products/products.controller';
import { ProductsService } from './products/products.service';
import { purchaseControllers, purchaseModels, purchaseProviders } from './purchases';
import { Brand, BrandSchema, Category, CategorySchema, Movement, MovementSchema, Product, ProductSchema, StockSourceDoc, StockSourceSchema, Unit, UnitSchema } from './schemas';
import { DemoSeedService } from './seed/demo.seed';
import { ReorderController, ReorderService } from './reorder';
import { InventoryHandlers } from './stock/inventory.handlers';
import { StockService } from './stock/stock.service';
import { InventoryEvents, InventoryHistoryHandlers } from './events/inventory-events';
import { Gstr2bController } from './gstr2b/gstr2b.controller';
import { GSTR2B_MODEL, Gstr2bSchema } from './gstr2b/gstr2b.schema';
import { Gstr2bService } from './gstr2b/gstr2b.service';

@Module({
  imports: [
    BahiServiceModule.forRoot({ service: 'inventory' }),
    MongooseModule.forFeature([
      { name: Product.name, schema: ProductSchema },
      { name: Category.name, schema: CategorySchema },
      { name: Brand.name, schema: BrandSchema },
      { name: Unit.name, schema: UnitSchema },
      { name: Movement.name, schema: MovementSchema },
      { name: StockSourceDoc.name, schema: StockSourceSchema },
      ...purchaseModels,
      { name: GSTR2B_MODEL, schema: Gstr2bSchema },
    ]),
  ],
  controllers: [ProductsController, CategoriesController, ImagesController, InventoryHandlers, DocumentsHandlers, ...purchaseControllers, ReorderController, ...importControllers, InventoryHistoryHandlers, Gstr2bController],
  providers: [InventoryEvents, ProductsService, StockService, ImagesService, DemoSeedService, ...purchaseProviders, ReorderService, Gstr2bService],
})
export class AppModule {}
