import { PartyExportsController, PartyImportsController } from './imports.controller';

/** Customer and distributor imports from CSV/XLSX, and their lists' exports. */
export const importControllers = [PartyImportsController, PartyExportsController];
