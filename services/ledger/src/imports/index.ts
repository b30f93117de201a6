import { PartyExportsController, PartyImportsController } from './imports.controller';
import { PaymentsExportController } from './payments.export';

/** Customer and distributor imports from CSV/XLSX, and their lists' exports (with the payments sheet of "Download all data"). */
export const importControllers = [PartyImportsController, PartyExportsController, PaymentsExportController];
