import type { RevocationsReply, SessionRevokedEvent } from './auth';
import type { CompanyDetails, CompanyDetailsRequest, UserLookupReply, UserLookupRequest } from './identity';

/**
 * Every NATS subject of the system, `<domain>.<entity>.<verb-or-event>`. Nothing else spells a
 * subject: services use `Subjects.x.y` with `@MessagePattern`/`@EventPattern` and the NATS client.
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
    /** Event: a platform admin deleted a company; services may purge its data. */
    companyDeleted: 'identity.company.deleted',
  },
  inventory: {
    /** Request: a product of the caller's company by its id. */
    productLookup: 'inventory.product.lookup',
  },
  sales: {
    /** Event: a sale was stored. */
    saleCreated: 'sales.sale.created',
  },
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
  'inventory.product.lookup': { companyId: number; productId: number };
  'sales.sale.created': { companyId: number; saleId: number };
}

/** Reply type of each request subject (`void` for events). */
export interface SubjectReplies {
  'identity.session.revoked': void;
  'identity.session.revocations': RevocationsReply;
  'identity.company.details': CompanyDetails;
  'identity.user.lookup': UserLookupReply;
  'identity.company.deleted': void;
  'inventory.product.lookup': unknown;
  'sales.sale.created': void;
}

export type PayloadOf<S extends Subject> = S extends keyof SubjectPayloads ? SubjectPayloads[S] : unknown;
export type ReplyOf<S extends Subject> = S extends keyof SubjectReplies ? SubjectReplies[S] : unknown;

/** The body of an RpcException crossing NATS: the HTTP status and message survive the trip. */
export interface RpcErrorBody {
  status: number;
  message: string;
}
