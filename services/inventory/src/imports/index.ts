import { InventoryExportsController, ProductImportsController } from './imports.controller';

/** Product imports from CSV/XLSX and the inventory lists' exports. */
export const importControllers = [ProductImportsController, InventoryExportsController];
