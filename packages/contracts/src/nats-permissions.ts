import { ServiceNames, type ServiceName } from './services';
import { Subjects, type Subject } from './subjects';
import { jetStreamGrants } from './events';

/**
 * Who may say what on NATS. Every subject has one owner (the service answering the request or
 * publishing the event) and its consumers (who request it, who subscribe to the event). Each
 * principal (a service or the gateway) connects as its own NATS user, and its permissions are
 * generated from this table: nats-server refuses anything else, so a process holding one
 * service's credentials cannot ask for another service's private subjects.
 *
 * JetStream (events.ts `jetStreamGrants`): each owner may publish its own `events.<domain>.>`
 * subjects and create, update and read its own stream; reports may read the streams' info,
 * create and read its durable consumers, pull from them and ack (`$JS.API.CONSUMER.*.<STREAM>.>`,
 * `$JS.API.CONSUMER.MSG.NEXT.<STREAM>.>`, `$JS.ACK.<STREAM>.>`); nobody else has any JetStream API.
 */
export const NatsPrincipals = [...ServiceNames, 'gateway'] as const;
export type NatsPrincipal = (typeof NatsPrincipals)[number];

export interface SubjectRoute {
  kind: 'request' | 'event';
  owner: ServiceName;
  consumers: readonly NatsPrincipal[];
}

const all: readonly NatsPrincipal[] = NatsPrincipals;
const req = (owner: ServiceName, ...consumers: NatsPrincipal[]): SubjectRoute => ({ kind: 'request', owner, consumers });
const evt = (owner: ServiceName, ...consumers: NatsPrincipal[]): SubjectRoute => ({ kind: 'event', owner, consumers });

const I = Subjects.identity;
const V = Subjects.inventory;
const S = Subjects.sales;
const L = Subjects.ledger;
const D = Subjects.documents;
const T = Subjects.tally;

/** Every subject of `Subjects`, with its owner and consumers (contract-tests check both against the code). */
export const SubjectRoutes: Record<Subject, SubjectRoute> = {
  // Every service's and the gateway's RevocationList loads the list and follows the event.
  [I.sessionRevoked]: evt('identity', ...all),
  [I.sessionRevocations]: req('identity', ...all),
  // inventory and ledger: the demo seed waits for the demo company.
  [I.companyDetails]: req('identity', 'inventory', 'sales', 'ledger', 'documents', 'reports'),
  [I.userLookup]: req('identity'),
  // documents revokes the deleted company's share links (one replica of its queue group).
  [I.companyDeleted]: evt('identity', 'documents'),
  // Sales keeps each company's tax settings (service-kit EventCache); every replica drops its copy.
  [I.companyChanged]: evt('identity', 'sales'),
  // The counter's discount approval (issue 28).
  [I.approverList]: req('identity', 'sales'),
  [I.approverVerify]: req('identity', 'sales'),
  [V.productLookup]: req('inventory', 'sales'),
  [V.productMany]: req('inventory', 'sales'),
  [V.productSuggest]: req('inventory', 'sales'),
  [V.stockApply]: req('inventory', 'sales'),
  [V.stockReverse]: req('inventory', 'sales'),
  [V.gstInward]: req('inventory', 'sales'),
  [V.historyPage]: req('inventory', 'reports'),
  [S.saleCreated]: evt('sales'),
  [S.cartGet]: req('sales', 'inventory'),
  [S.cartClear]: req('sales', 'inventory'),
  [S.estimateGet]: req('sales', 'inventory'),
  [S.historyPage]: req('sales', 'reports'),
  [L.customerLookup]: req('ledger', 'sales', 'reports'),
  [L.customerWalkIn]: req('ledger'),
  [L.partyDue]: req('ledger', 'sales', 'inventory'),
  [L.entryPost]: req('ledger', 'sales', 'inventory'),
  [L.entryReverse]: req('ledger', 'sales', 'inventory'),
  [L.distributorCheckout]: req('ledger', 'inventory'),
  [L.distributorLookup]: req('ledger', 'inventory', 'reports'),
  [L.historyPage]: req('ledger', 'reports'),
  [L.registerCheck]: req('ledger', 'sales'),
  [D.saleDocument]: req('sales', 'documents', 'reports'),
  [D.estimateDocument]: req('sales', 'documents'),
  [D.receiptDocument]: req('ledger', 'documents'),
  [D.customerStatement]: req('ledger', 'documents'),
  [D.stockBook]: req('inventory', 'documents'),
  [D.labelDetails]: req('inventory', 'documents'),
  [D.purchaseLabels]: req('inventory', 'documents'),
  [D.creditNoteDocument]: req('sales', 'documents', 'reports'),
  [D.debitNoteDocument]: req('inventory', 'documents', 'reports'),
  [D.reorderDocument]: req('inventory', 'documents'),
  [D.reportRows]: req('reports', 'documents'),
  [D.registerDocument]: req('ledger', 'documents'),
  // The Tally export (reports) reads the documents above and these (tally.ts).
  [T.purchaseDocument]: req('inventory', 'reports'),
  [T.paymentDocument]: req('ledger', 'reports'),
  [T.accountantLedgers]: req('identity', 'reports'),
};

/**
 * The reply inbox prefix of a principal (nats.js `inboxPrefix`): only it may subscribe below it,
 * so one service cannot read another's replies.
 */
/**
 * The servers of a NATS_URL: one address, or a cluster's addresses separated by commas
 * (`nats://nats-1:4222,nats://nats-2:4222,nats://nats-3:4222`); the client fails over between them.
 */
export function natsServers(url: string): string[] {
  const servers = url.split(',').map((s) => s.trim()).filter(Boolean);
  if (!servers.length) throw new Error('NATS_URL names no server.');
  return servers;
}

export function natsInboxPrefix(principal: NatsPrincipal): string {
  return `_INBOX.${principal}`;
}

export interface NatsPermissions {
  publish: { allow: string[] };
  subscribe: { allow: string[] };
  /** Replies go only to the inbox of a request this principal received (nats-server `allow_responses`). */
  allow_responses: true;
}

/**
 * publish = the subjects it requests + its own events; subscribe = its own request subjects
 * (Nest subscribes them in a queue group named after the service) + the events it consumes +
 * its own inbox.
 */
export function natsPermissions(principal: NatsPrincipal): NatsPermissions {
  const publish = new Set<string>();
  const subscribe = new Set<string>();
  for (const [subject, r] of Object.entries(SubjectRoutes) as [Subject, SubjectRoute][]) {
    const owns = r.owner === principal;
    const consumes = r.consumers.includes(principal);
    if (r.kind === 'request') {
      if (owns) subscribe.add(subject);
      if (consumes) publish.add(subject);
    } else {
      if (owns) publish.add(subject);
      if (consumes) subscribe.add(subject);
    }
  }
  subscribe.add(`${natsInboxPrefix(principal)}.>`);
  const js = jetStreamGrants(principal);
  js.publish.forEach((x) => publish.add(x));
  js.subscribe.forEach((x) => subscribe.add(x));
  return { publish: { allow: [...publish].sort() }, subscribe: { allow: [...subscribe].sort() }, allow_responses: true };
}

/** The environment variable holding a principal's NATS password in compose (`SALES_NATS_PASSWORD`). */
export function natsPasswordEnv(principal: NatsPrincipal): string {
  return `${principal.toUpperCase()}_NATS_PASSWORD`;
}

/**
 * The `authorization` block of a nats-server config with one user per principal. `password`
 * gives each one's password as it should appear in the file: a quoted literal, or `$VAR` for
 * nats-server to read from its environment (compose).
 */
export function natsAuthorizationBlock(password: (principal: NatsPrincipal) => string, principals: readonly NatsPrincipal[] = NatsPrincipals): string {
  const users = principals.map((p) => {
    const perms = natsPermissions(p);
    const list = (xs: string[]) => `[${xs.map((x) => JSON.stringify(x)).join(', ')}]`;
    return [
      `    {`,
      `      user: ${JSON.stringify(p)}`,
      `      password: ${password(p)}`,
      `      permissions: {`,
      `        publish: { allow: ${list(perms.publish.allow)} }`,
      `        subscribe: { allow: ${list(perms.subscribe.allow)} }`,
      `        allow_responses: true`,
      `      }`,
      `    }`,
    ].join('\n');
  });
  return `authorization {\n  users: [\n${users.join('\n')}\n  ]\n}\n`;
}

/**
 * compose's nats-server config (services/nats.conf, written by scripts/nats-config.mjs): clients
 * on 4222 only as one of the users, each password from nats-server's environment; the
 * monitoring port only inside the container, for its healthcheck. JetStream: command line.
 */
export function composeNatsConfig(): string {
  return [
    '# Generated by scripts/nats-config.mjs from @bahi/contracts (SubjectRoutes): do not edit by hand.',
    '# Each user\'s password is read from the nats container\'s environment (<NAME>_NATS_PASSWORD).',
    'listen: "0.0.0.0:4222"',
    'http: "127.0.0.1:8222"',
    natsAuthorizationBlock((p) => `$${natsPasswordEnv(p)}`),
  ].join('\n');
}

