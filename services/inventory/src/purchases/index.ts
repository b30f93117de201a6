import { DEBIT_NOTE_MODEL, DebitNoteSchema } from './debit-note.schema';
import { DebitNoteHandlers, DebitNotesController } from './debit-notes.controller';
import { DebitNotesService } from './debit-notes.service';
import { PurchaseHandlers } from './purchase.handlers';
import { PurchaseInwardService } from './purchase.inward';
import { PurchaseLabelsService } from './purchase.labels';
import { PURCHASE_MODEL, PurchaseSchema } from './purchase.schema';
import { PurchasesController } from './purchases.controller';
import { PurchasesService } from './purchases.service';

/** The purchases module's parts; they live in inventory's AppModule to share its stock and product services in-process. */
export const purchaseModels = [
  { name: PURCHASE_MODEL, schema: PurchaseSchema },
  { name: DEBIT_NOTE_MODEL, schema: DebitNoteSchema },
];
export const purchaseControllers = [PurchasesController, PurchaseHandlers, DebitNotesController, DebitNoteHandlers];
export const purchaseProviders = [PurchasesService, PurchaseLabelsService, PurchaseInwardService, DebitNotesService];
