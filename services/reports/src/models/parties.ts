import type { EntryPart, Fact, PartyFact } from '../facts';
import type { Fold } from '../fold';
import { C } from '../store';
import type { ReadModel } from './model';

/** An open (not yet paid) due of a party, paise. */
export interface OpenDue {
  date: string;
  dueDate: string | null;
  docNo: string | null;
  amount: number;
  /** The document that raised it (`sale:12`). */
  src?: string;
}

/**
 * A party's name from a bill or purchase that names it, until the ledger's own party event has
 * named it (`nv`): that one is the party's name now, a bill's is the name it was billed under.
 */
async function partyName(companyId: number, side: 'r' | 'p', partyId: number | null, name: string, w: Fold) {
  if (partyId === null || !name) return;
  const id = `${companyId}:${side}:${partyId}`;
  const cur = await w.get(C.parties, id);
  if (cur && typeof cur.nv === 'number') return;
  await w.update(C.parties, id, { set: { name }, onInsert: { companyId, side, partyId, balance: 0 } });
}

/** The ledger's customer or distributor: its name everywhere the reports show it, the latest write winning. */
async function partyChanged(f: PartyFact, w: Fold) {
  const id = `${f.companyId}:${f.side}:${f.partyId}`;
  const cur = await w.get(C.parties, id);
  if (cur && typeof cur.nv === 'number' && cur.nv > f.version) return; // an older change arriving late
  await w.update(C.parties, id, { set: { nv: f.version, name: f.name, mobile: f.mobile, gstin: f.gstin }, onInsert: { companyId: f.companyId, side: f.side, partyId: f.partyId, balance: 0 } });
}

/**
 * The ledger's entry: the party's balance is the sum of its deltas. The party row also keeps its
 * open dues oldest first (a payment or credit clears the oldest, as a shop reads an account),
 * so the ageing reads one row per party: a positive delta is a new due (after any advance the
 * party had), a negative one clears dues from the oldest, any excess is an advance.
 */
async function entry(f: Fact & { entry: EntryPart }, w: Fold) {
  const { side, partyId, delta, dueDate, docNo, src, reversal } = f.entry;
  const c = f.companyId;
  const id = `${c}:${side}:${partyId}`;
  const cur = await w.get(C.parties, id);
  const was: OpenDue[] = ((cur?.open as OpenDue[] | undefined) ?? []).map((d) => ({ ...d }));
  const open: OpenDue[] = was.map((d) => ({ ...d }));
  let advance = Number(cur?.advance ?? 0);
  if (delta > 0) {
    const used = Math.min(advance, delta);
    advance -= used;
    if (delta - used > 0) open.push({ date: f.date, dueDate, docNo, amount: delta - used, src });
  } else {
    let left = -delta;
    // A reversal (a sale or purchase undone) takes back its own document's due first.
    for (let i = open.length - 1; reversal && left > 0 && i >= 0; i--) {
      if (open[i]!.src !== src) continue;
      const take = Math.min(left, open[i]!.amount);
      open[i]!.amount -= take;
      left -= take;
      if (open[i]!.amount === 0) open.splice(i, 1);
    }
    while (left > 0 && open.length) {
      const take = Math.min(left, open[0]!.amount);
      open[0]!.amount -= take;
      left -= take;
      if (open[0]!.amount === 0) open.shift();
    }
    advance += left;
  }
  await w.update(C.parties, id, { inc: { balance: delta }, set: { open, advance, oldestDue: open[0]?.date ?? null }, onInsert: { companyId: c, side, partyId } });
  // What is open per date, over every party: the ageing buckets' totals in a few hundred rows.
  const byDate = new Map<string, number>();
  for (const d of was) byDate.set(d.date, (byDate.get(d.date) ?? 0) - d.amount);
  for (const d of open) byDate.set(d.date, (byDate.get(d.date) ?? 0) + d.amount);
  for (const [date, amount] of byDate) {
    if (amount === 0) continue;
    w.write(C.openDues, `${c}:${side}:${date}`, { inc: { amount }, onInsert: { companyId: c, side, date } });
  }
}

/** Customers and distributors: balance, open dues oldest first (ageing), name; open dues per date. */
export const parties: ReadModel = {
  name: 'parties',
  kinds: ['sale', 'purchase', 'purchase-return', 'payment-received', 'payment-given', 'ledger-entry', 'party-changed'],
  collections: [C.parties, C.openDues],
  prefetch(f, want) {
    const c = f.companyId;
    switch (f.kind) {
      case 'sale':
        if (f.customerId !== null) want(C.parties, `${c}:r:${f.customerId}`);
        return;
      case 'purchase':
      case 'purchase-return':
        if (f.distributorId !== null) want(C.parties, `${c}:p:${f.distributorId}`);
        return;
      case 'payment-received':
      case 'payment-given':
      case 'ledger-entry':
        want(C.parties, `${c}:${f.entry.side}:${f.entry.partyId}`);
        return;
      case 'party-changed':
        want(C.parties, `${c}:${f.side}:${f.partyId}`);
        return;
      default:
        return;
    }
  },
  async fold(f: Fact, w: Fold) {
    switch (f.kind) {
      case 'sale':
        return partyName(f.companyId, 'r', f.customerId, f.customerName, w);
      case 'purchase':
      case 'purchase-return':
        return partyName(f.companyId, 'p', f.distributorId, f.distributorName, w);
      case 'payment-received':
      case 'payment-given':
      case 'ledger-entry':
        return entry(f, w);
      case 'party-changed':
        return partyChanged(f, w);
      default:
        return;
    }
  },
};
