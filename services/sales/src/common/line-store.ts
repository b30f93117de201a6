import { ConflictException, NotFoundException } from '@nestjs/common';
import type { Model } from 'mongoose';
import type { ProductSnapshot } from '@bahi/contracts';
import { add, money, type SequenceService } from '@bahi/service-kit';
import { lineFromProduct } from './lines';
import type { LineDoc } from './schemas';
import type { StoredLine } from './totals';

const MAX_ATTEMPTS = 20;

/**
 * Appends a line for a product not yet in the document, in one command: a $push guarded by "this
 * product is not in it", answering the document after. Null when the guard fails (the product is
 * there) or there is no document: then `mutate` takes over. It bumps `version` like `mutate`, so
 * every other writer's version check sees it.
 */
export async function pushNewLine<T extends LineDoc>(model: Model<T>, filter: Record<string, unknown>, line: StoredLine): Promise<T | null> {
  const after = await model.collection.findOneAndUpdate(
    { ...filter, 'lines.product_id': { $ne: line.product_id } } as never,
    { $push: { lines: line }, $inc: { version: 1 }, $set: { updatedAt: new Date() } } as never,
    { returnDocument: 'after' },
  );
  return (after as T | null) ?? null;
}

/**
 * Read-modify-write of a cart or estimate with an optimistic version check, so two tabs (or a
 * scanner and a mouse) editing the same cart never lose each other's changes. Reads and writes go
 * to the driver's collection: this is the counter's every scan, the lines are built typed by this
 * service, and mongoose's casting of every line on each write was a good part of a scan's cost.
 */
export async function mutate<T extends LineDoc>(
  model: Model<T>,
  filter: Record<string, unknown>,
  change: (doc: T) => void | Promise<void>,
  opts: { upsert?: Partial<T>; notFound?: string } = {},
): Promise<T> {
  for (let i = 0; i < MAX_ATTEMPTS; i++) {
    let doc = (await model.collection.findOne(filter)) as T | null;
    if (!doc) {
      if (!opts.upsert) throw new NotFoundException(opts.notFound ?? 'Not found.');
      try {
        await model.create({ ...filter, ...opts.upsert, lines: [], tax: 0, shipping: '0', discount: '0', version: 0 } as never);
      } catch (err) {
        if ((err as { code?: number }).code !== 11000) throw err;
      }
      continue;
    }
    const version = doc.version ?? 0;
    doc = structuredClone(doc);
    await change(doc);
    const res = await model.collection.updateOne({ ...filter, version } as never, {
      $set: { lines: doc.lines, tax: doc.tax, shipping: doc.shipping, discount: doc.discount, summary_approval: doc.summary_approval ?? null, version: version + 1, updatedAt: new Date() },
    } as never);
    if (res.modifiedCount === 1 || res.matchedCount === 1) return { ...doc, version: version + 1 };
  }
  throw new ConflictException('The cart is being changed elsewhere; please try again.');
}

/** Adds a product, or adds to the quantity of its existing line. Returns the touched line. */
export async function addProductLine(lines: StoredLine[], p: ProductSnapshot, quantity: string, seq: SequenceService, companyId: number): Promise<StoredLine> {
  const existing = lines.find((l) => l.product_id === p.product_id);
  if (existing) {
    existing.quantity = add(existing.quantity, quantity).toFixed();
    existing.stock = money(p.stock).toFixed();
    // A line from before GST mode takes the product's rate when scanned again.
    if (existing.gst_rate === undefined) Object.assign(existing, { gst_rate: p.tax_percent ?? undefined, price_includes_tax: p.price_includes_tax !== false });
    return existing;
  }
  const line = lineFromProduct(p, await seq.unique(companyId, 'line'), quantity);
  lines.push(line);
  return line;
}

export function findLine(lines: StoredLine[], sl_no: number): StoredLine {
  const line = lines.find((l) => l.sl_no === sl_no);
  if (!line) throw new NotFoundException(`No line ${sl_no} in this cart.`);
  return line;
}
