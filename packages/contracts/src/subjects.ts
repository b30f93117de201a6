import type { RevocationsReply, SessionRevokedEvent } from './auth';
import type { ApproverListReply, ApproverListRequest, ApproverVerifyReply, ApproverVerifyRequest, CompanyDetails, CompanyDetailsRequest, UserLookupReply, UserLookupRequest } from './identity';
import type * as I from './inventory';
import type * as L from './ledger';
import { DocumentSubjects } from './documents';
import { TallySubjects } from './tally';

/**
 * Every NATS subject of the system, `<domain>.<entity>.<verb-or-event>`. Nothing else spells a
 * subject: services use `Subjects.x.y` with `@MessagePattern`/`@EventPattern` and the NATS client.
 * Who owns and who consumes each one, and the NATS permissions that follow, are in nats-permissions.ts.
 */
export const Subjects = {
  identity: {
    /** Event: tokens were revoked (logout, password change, lock, company deleted). Every replica listens. */
    sessionRevoked: 'identity.session.revoked',
    /** Request: the live revocation list, loaded at start by every RevocationList. */
    sessionRevocations: 'identity.session.revocations',
    /** Request: a company's profile for bill and document headers. */
    companyDetails: 'identity.company.details',
    /** Request: one user of a company, by id or e-mail. */
    userLookup: 'identity.user.lookup',
    /** Event: a platform admin deleted a company; services may purge its data (documents revokes its share links). */
    companyDeleted: 'identity.company.deleted',
    /** Event: a company's profile or GST settings changed; services holding them drop their copy. Every replica listens. */
    companyChanged: 'identity.company.changed',
    /** Request: the company's managers, who may approve a staff member's discount. */
    approverList: 'identity.approver.list',
    /** Request: checks a manager's approval PIN (with its lockout). */
    approverVerify: 'identity.approver.verify',
  },
  inventory: {
    /** Request: an active product of the company by product id or barcode; null when none. */
    productLookup: 'inventory.product.lookup',
    /** Request: products of the company by ids (missing ids are left out). */
    productMany: 'inventory.product.many',
    /** Request: the cart's product suggestions. */
    productSuggest: 'inventory.product.suggest',
    /** Request: apply the stock movements of a document, once per source. */
    stockApply: 'inventory.stock.apply',
    /** Request: reverse an applied source exactly once. */
    stockReverse: 'inventory.stock.reverse',
    /** Request: input tax of the company's purchases in a date range (GSTR-3B). */
    gstInward: 'inventory.gst.inward',
    /** Request: a page of inventory's domain events from its records (rebuilds; events.ts). */
    historyPage: 'inventory.history.page',
  },
  sales: {
    /** Event: a sale was stored. */
    saleCreated: 'sales.sale.created',
    /** Request: a user's cart lines and summary (a purchase reads them). */
    cartGet: 'sales.cart.get',
    /** Request: empty a cart after a purchase (only the purchased lines if it changed). */
    cartClear: 'sales.cart.clear',
    /** Request: an estimate's lines and summary; null when unknown. */
    estimateGet: 'sales.estimate.get',
    /** Request: a page of sales' domain events from its records (rebuilds; events.ts). */
    historyPage: 'sales.history.page',
  },
  ledger: {
    /** Request: a customer by client_id (0 or null -> the walk-in customer); null when unknown. */
    customerLookup: 'ledger.customer.lookup',
    /** Request: the company's walk-in customer (created on first use). */
    customerWalkIn: 'ledger.customer.walkIn',
    /** Request: a party's due and due date (previous due of a bill; the walk-in's is always 0). */
    partyDue: 'ledger.party.due',
    /** Request: post a sale's or purchase's entry; idempotent by source document. */
    entryPost: 'ledger.entry.post',
    /** Request: reverse what a source document posted; idempotent. */
    entryReverse: 'ledger.entry.reverse',
    /** Request: distributors and their officers for a purchase checkout. */
    distributorCheckout: 'ledger.distributor.checkout',
    /** Request: a distributor by distributor_id; null when unknown. */
    distributorLookup: 'ledger.distributor.lookup',
    /** Request: a page of ledger's domain events from its records (rebuilds; events.ts). */
    historyPage: 'ledger.history.page',
    /** Request: whether a cashier has an open register session (sales, when the company's require_register is on). */
    registerCheck: 'ledger.register.check',
  },
  /** Requests the documents service makes of the owning services (payloads and replies in documents.ts). */
  documents: DocumentSubjects,
  /** What reports asks the owners for the Tally export (payloads and replies in tally.ts). */
  tally: TallySubjects,
} as const;

type Leaves<T> = T extends string ? T : { [K in keyof T]: Leaves<T[K]> }[keyof T];
export type Subject = Leaves<typeof Subjects>;

/** Payload type of each subject. */
export interface SubjectPayloads {
  'identity.session.revoked': SessionRevokedEvent;
  'identity.session.revocations': Record<string, never>;
  'identity.company.details': CompanyDetailsRequest;
  'identity.user.lookup': UserLookupRequest;
  'identity.company.deleted': { companyId: number };
  'identity.approver.list': ApproverListRequest;
  'identity.approver.verify': ApproverVerifyRequest;
  'inventory.product.lookup': I.ProductLookupRequest;
  'inventory.product.many': I.ProductManyRequest;
  'inventory.product.suggest': I.ProductSuggestRequest;
  'inventory.stock.apply': I.StockApplyRequest;
  'inventory.stock.reverse': I.StockReverseRequest;
  'sales.sale.created': { companyId: number; saleId: number };
  'ledger.customer.lookup': L.CustomerLookupRequest;
  'ledger.customer.walkIn': L.WalkInRequest;
  'ledger.party.due': L.PartyDueRequest;
  'ledger.entry.post': L.EntryPostRequest;
  'ledger.entry.reverse': L.EntryReverseRequest;
  'ledger.distributor.checkout': L.DistributorCheckoutRequest;
  'ledger.distributor.lookup': L.DistributorLookupRequest;
  'ledger.register.check': L.RegisterCheckRequest;
}

/** Reply type of each request subject (`void` for events). */
export interface SubjectReplies {
  'identity.session.revoked': void;
  'identity.session.revocations': RevocationsReply;
  'identity.company.details': CompanyDetails;
  'identity.user.lookup': UserLookupReply;
  'identity.company.deleted': void;
  'identity.approver.list': ApproverListReply;
  'identity.approver.verify': ApproverVerifyReply;
  'inventory.product.lookup': I.ProductSnapshot | null;
  'inventory.product.many': I.ProductSnapshot[];
  'inventory.product.suggest': I.ProductSuggestion[];
  'inventory.stock.apply': I.StockApplyReply;
  'inventory.stock.reverse': I.StockReverseReply;
  'sales.sale.created': void;
  'ledger.customer.lookup': L.Customer | null;
  'ledger.customer.walkIn': L.Customer;
  'ledger.party.due': L.PartyDueReply;
  'ledger.entry.post': L.EntryPostReply;
  'ledger.entry.reverse': L.EntryReverseReply;
  'ledger.distributor.checkout': L.DistributorCheckoutReply;
  'ledger.distributor.lookup': L.Distributor | null;
  'ledger.register.check': L.RegisterCheckReply;
}

export type PayloadOf<S extends Subject> = S extends keyof SubjectPayloads ? SubjectPayloads[S] : unknown;
export type ReplyOf<S extends Subject> = S extends keyof SubjectReplies ? SubjectReplies[S] : unknown;

/** The body of an RpcException crossing NATS: the HTTP status and message survive the trip. */
export interface RpcErrorBody {
  status: number;
  message: string;
}
