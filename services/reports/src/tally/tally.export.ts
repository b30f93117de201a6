import { BadRequestException, Injectable, ServiceUnavailableException } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import type { Db } from 'mongodb';
import { Subjects, TALLY_LEDGERS, TALLY_MAX_DAYS, TALLY_MESSAGES, type Customer, type PurchaseDocument, type SaleDocument } from '@bahi/contracts';
import { isRealDate, NatsClient } from '@bahi/service-kit';
import { C } from '../store';
import { creditNoteVouchers, customerParty, debitNoteVouchers, distributorParty, expenseVoucher, imbalance, paymentVoucher, purchaseVouchers, saleVouchers, type ExpenseRow, type Naming, type TallyParty, type TallyVoucher } from './vouchers';
import { tallyXml } from './xml';

const KINDS = ['sale', 'sale-return', 'purchase', 'purchase-return', 'payment-received', 'payment-given'] as const;
/** Requests in flight to the owners at once (each voucher's document is one request). */
const PARALLEL = 8;

async function mapLimit<T, R>(items: T[], fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

/** Days from `from` to `to`, both counted. */
const daysIn = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** The range a request names, or a 400 with the sentence. */
export function tallyRange(q: Record<string, unknown>): { from: string; to: string } {
  const { from, to } = q;
  if (!isRealDate(from) || !isRealDate(to)) throw new BadRequestException(TALLY_MESSAGES.dates);
  if (from > to) throw new BadRequestException(TALLY_MESSAGES.reversed(from, to));
  const days = daysIn(from, to);
  if (days > TALLY_MAX_DAYS) throw new BadRequestException(TALLY_MESSAGES.tooLong(days));
  return { from, to };
}

/**
 * GET /export/tally: the documents of the range come from the read model's day book (`txns`:
 * every bill, note, purchase and payment with its date), each document's figures from its owner
 * over NATS (the same data its printed document shows), the ledger names from identity.
 */
@Injectable()
export class TallyExport {
  constructor(
    @InjectConnection() private readonly conn: Connection,
    private readonly nats: NatsClient,
  ) {}

  async build(companyId: number, from: string, to: string): Promise<{ xml: string; vouchers: number }> {
    const db = this.conn.db as unknown as Db;
    const [company, { names }] = await Promise.all([this.nats.send(Subjects.identity.companyDetails, { companyId }), this.nats.send(Subjects.tally.accountantLedgers, { companyId })]);
    const rows = await db
      .collection(C.txns)
      .find({ companyId, date: { $gte: from, $lte: to }, kind: { $in: [...KINDS] } }, { projection: { kind: 1, ref: 1, date: 1, at: 1 } })
      .sort({ date: 1, at: 1, _id: 1 })
      .toArray();
    const seen = new Set<string>();
    const docs = rows.filter((r) => {
      const k = `${r.kind}:${r.ref}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });

    // Party names are unique in Tally (and apart from Bahi's own ledgers): a second party of the same name gets its id.
    const taken = new Map<string, string>(TALLY_LEDGERS.filter((l) => l.key !== 'walk_in').map((l) => [names[l.key]!.toLowerCase(), `bahi:${l.key}`]));
    const parties = new Map<string, TallyParty>();
    const partyNames = new Map<string, string>();
    const nameOf = (key: string, base: string, suffix: string) => {
      const known = partyNames.get(key);
      if (known) return known;
      let name = base.trim() || suffix;
      const owner = taken.get(name.toLowerCase());
      if (owner && owner !== key) name = `${name} (${suffix})`;
      taken.set(name.toLowerCase(), key);
      partyNames.set(key, name);
      return name;
    };
    const walkIn = names.walk_in!;
    const customers = new Map<number, Customer | null>();
    const distributors = new Map<number, string>();
    const naming: Naming = {
      ledgers: names,
      customer: (c) => {
        if (!c || c.walkIn) return walkIn;
        const name = nameOf(`c:${c.client_id}`, c.name, `Customer ${c.client_id}`);
        if (!parties.has(`c:${c.client_id}`)) parties.set(`c:${c.client_id}`, customerParty(c, name));
        return name;
      },
      distributor: (id, fallback) => nameOf(`d:${id}`, distributors.get(id) ?? fallback, `Distributor ${id}`),
    };

    const sales = new Map<number, SaleDocument | null>();
    const purchases = new Map<number, PurchaseDocument | null>();
    const sale = async (saleId: number) => {
      if (!sales.has(saleId)) sales.set(saleId, await this.nats.send(Subjects.documents.saleDocument, { companyId, saleId }));
      return sales.get(saleId)!;
    };
    const purchase = async (purchaseId: number) => {
      if (!purchases.has(purchaseId)) purchases.set(purchaseId, await this.nats.send(Subjects.tally.purchaseDocument, { companyId, purchaseId }));
      return purchases.get(purchaseId)!;
    };
    const distributor = async (id: number) => {
      if (parties.has(`d:${id}`)) return;
      const d = await this.nats.send(Subjects.ledger.distributorLookup, { companyId, distributorId: id });
      if (d) {
        distributors.set(id, d.name);
        parties.set(`d:${id}`, distributorParty(d, naming.distributor(id, d.name)));
      }
    };

    // Fetched in parallel; turned into vouchers in the day book's order so names are given the same way every time.
    type Fetched = { kind: string; run: () => Promise<TallyVoucher[]> };
    let fetched: Fetched[];
    try {
      fetched = await mapLimit(docs, async (r): Promise<Fetched> => {
        const ref = Number(r.ref);
        switch (r.kind as (typeof KINDS)[number]) {
          case 'sale': {
            const s = await sale(ref);
            return { kind: r.kind, run: async () => (s ? saleVouchers(s, naming) : []) };
          }
          case 'sale-return': {
            const c = await this.nats.send(Subjects.documents.creditNoteDocument, { companyId, creditNoteId: ref });
            const s = c ? await sale(c.saleId) : null;
            return { kind: r.kind, run: async () => (c ? creditNoteVouchers(c, s, naming) : []) };
          }
          case 'purchase': {
            const p = await purchase(ref);
            if (p) await distributor(p.distributorId);
            return { kind: r.kind, run: async () => (p ? purchaseVouchers(p, naming) : []) };
          }
          case 'purchase-return': {
            const d = await this.nats.send(Subjects.documents.debitNoteDocument, { companyId, debitNoteId: ref });
            const p = d ? await purchase(d.purchaseId) : null;
            if (d) await distributor(d.distributor_id);
            return { kind: r.kind, run: async () => (d ? debitNoteVouchers(d, p, naming) : []) };
          }
          default: {
            const p = await this.nats.send(Subjects.tally.paymentDocument, { companyId, paymentId: ref });
            if (!p) return { kind: r.kind, run: async () => [] };
            if (p.partyKind === 'distributor') {
              await distributor(p.partyId);
              return { kind: r.kind, run: async () => [paymentVoucher(p, naming.distributor(p.partyId, `Distributor ${p.partyId}`), naming)] };
            }
            if (!customers.has(p.partyId)) customers.set(p.partyId, await this.nats.send(Subjects.ledger.customerLookup, { companyId, clientId: p.partyId }));
            return { kind: r.kind, run: async () => [paymentVoucher(p, naming.customer(customers.get(p.partyId) ?? null), naming)] };
          }
        }
      });
    } catch (err) {
      if ((err as { getStatus?: () => number }).getStatus?.() === 400) throw err;
      throw new ServiceUnavailableException(TALLY_MESSAGES.unavailable);
    }
    const vouchers: TallyVoucher[] = [];
    for (const f of fetched) vouchers.push(...(await f.run()));
    // Expenses (their latest version, not deleted), after the documents: a Payment each.
    const expenseLedgers = new Map<string, string>();
    const expenses = await db
      .collection(C.expenses)
      .find({ companyId, date: { $gte: from, $lte: to }, deleted: { $ne: true } }, { projection: { expenseId: 1, date: 1, category: 1, note: 1, payments: 1, at: 1 } })
      .sort({ date: 1, at: 1, expenseId: 1 })
      .toArray();
    for (const e of expenses as unknown as ExpenseRow[]) {
      const own = names[`expense_${e.category}`];
      // A category the company added is a ledger of its own name (kept apart from every other name).
      const ledger = own ?? nameOf(`e:${e.category}`, e.category.charAt(0).toUpperCase() + e.category.slice(1), 'expense');
      if (!own) expenseLedgers.set(ledger, ledger);
      vouchers.push(expenseVoucher(e, ledger, naming));
    }
    for (const v of vouchers) {
      if (!imbalance(v).isZero()) throw new Error(`unbalanced tally voucher ${v.type} ${v.number}: ${imbalance(v).toFixed(2)}`);
    }
    const used = new Set(vouchers.flatMap((v) => v.entries.map((e) => e.ledger)));
    if (vouchers.some((v) => v.party === walkIn)) parties.set('walk-in', { name: walkIn, group: 'Sundry Debtors', gstin: null, state: '', country: 'India', pincode: '', address: [] });
    const xml = tallyXml({ company: company.name, ledgers: names, used, parties: [...parties.values()], extra: [...expenseLedgers.keys()].map((name) => ({ name, group: 'Indirect Expenses' as const })), vouchers });
    return { xml, vouchers: vouchers.length };
  }
}
