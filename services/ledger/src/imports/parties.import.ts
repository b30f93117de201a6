import { HttpException } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import type { ClientSession, Model } from 'mongoose';
import { WALK_IN_MOBILE, type ImportFieldDef } from '@bahi/contracts';
import { castForInsert, Limits, Money, pendingEventFields, type SequenceService, stripBidi, today } from '@bahi/service-kit';
import type { ImportHandler, RowOutcome } from '@bahi/tabular';
import type { EntryDoc } from '../accounts/entry.schema';
import { tenDigits } from '../common';
import { CustomerDto } from '../customers/customers.dto';
import type { CustomerDoc } from '../customers/customer.schema';
import { DistributorDto } from '../distributors/distributors.dto';
import type { DistributorDoc } from '../distributors/distributor.schema';
import { checkPartyGst, checkPartyPin, type PartyCompany } from '../gst-party';

const ADDRESS: ImportFieldDef[] = [
  { key: 'address_line_1', label: 'Address line 1', required: true, aliases: ['Address', 'Address 1', 'Address Line1', 'Billing Address', 'Street'] },
  { key: 'address_line_2', label: 'Address line 2', aliases: ['Address 2', 'Address Line2', 'Area', 'Locality'] },
  { key: 'city_or_district', label: 'City or district', required: true, aliases: ['City', 'District', 'Town', 'City/District'] },
  { key: 'state', label: 'State', required: true, aliases: ['State Name', 'Province'] },
  { key: 'country', label: 'Country', aliases: ['Nation'] },
  { key: 'postal_code', label: 'PIN code', required: true, aliases: ['PIN', 'Pincode', 'Postal Code', 'Zip', 'Zip Code'] },
  { key: 'gstin', label: 'GSTIN', aliases: ['GST No', 'GST Number', 'GSTIN/UIN', 'GST'] },
  { key: 'opening_balance', label: 'Opening balance', aliases: ['Opening Balance', 'Balance', 'Opening Due', 'Due', 'Outstanding', 'Receivable', 'Payable'] },
];

export const CUSTOMER_FIELDS: ImportFieldDef[] = [
  { key: 'name', label: 'Name', required: true, aliases: ['Customer Name', 'Customer', 'Party Name', 'Party', 'Client Name', 'Client'] },
  { key: 'mobile_no', label: 'Mobile', required: true, aliases: ['Mobile No', 'Mobile Number', 'Phone', 'Phone No', 'Contact', 'Contact No', 'WhatsApp'] },
  ...ADDRESS,
];

export const DISTRIBUTOR_FIELDS: ImportFieldDef[] = [
  { key: 'name', label: 'Name', required: true, aliases: ['Distributor Name', 'Distributor', 'Supplier Name', 'Supplier', 'Party Name', 'Party', 'Vendor', 'Firm'] },
  ...ADDRESS,
];

/** Form field -> the column's label, for the report (the DTO's messages name the form field). */
const labelOf = (fields: ImportFieldDef[], key: string) => fields.find((f) => f.key === key)?.label ?? key;

function messages(errors: ValidationError[], fields: ImportFieldDef[]): { field: string; reason: string }[] {
  return errors.map((e) => ({ field: labelOf(fields, e.property), reason: Object.values(e.constraints ?? {})[0] ?? `${e.property} is not valid.` }));
}

const reasonOf = (err: unknown): string => {
  if (err instanceof HttpException) {
    const r = err.getResponse();
    return typeof r === 'string' ? r : String((r as { message?: unknown }).message ?? err.message);
  }
  throw err;
};

/** An opening balance as typed: '' is none; rupees with at most 2 decimals, not negative. */
function openingOf(v: string | undefined): { value?: string; error?: string } {
  const s = (v ?? '').replace(/^₹\s*/, '').replace(/,/g, '').trim();
  if (!s) return {};
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return { error: 'Opening balance must be an amount in rupees with at most 2 decimals, not negative.' };
  if (Money.money(s).greaterThan(Limits.maxAmount)) return { error: `Opening balance must be at most ${Limits.maxAmount}.` };
  return { value: Money.toMoneyString(s) };
}

interface PartyRow {
  fields: Record<string, unknown>;
  opening?: string;
  /** The existing party this row updates. */
  existing?: number;
  key: string;
}

interface Ctx {
  companyId: number;
  /** Its mode: GST mode needs a PIN code (checkPartyPin). */
  company: PartyCompany;
  /** The row's matching key -> its first row in the file. */
  seen: Map<string, number>;
}

export interface PartyModels {
  customers: Model<CustomerDoc>;
  distributors: Model<DistributorDoc>;
  entries: Model<EntryDoc>;
  seq: SequenceService;
  /** The company's details (identity), read once per upload. */
  company: (companyId: number) => Promise<PartyCompany>;
}

/**
 * Opening balances post as the demo's and Setting's do: one 'opening' entry per party. A party
 * that already has one keeps it (a re-import does not post it again).
 */
async function postOpenings(m: PartyModels, companyId: number, kind: 'customer' | 'distributor', rows: { id: number; amount: string }[], session: ClientSession) {
  const withAmount = rows.filter((r) => Money.money(r.amount).greaterThan(0));
  if (!withAmount.length) return;
  const have = new Set(
    (await m.entries.find({ companyId, partyKind: kind, partyId: { $in: withAmount.map((r) => r.id) }, sourceKind: 'opening' }, { partyId: 1 }).session(session).lean()).map((e) => e.partyId),
  );
  const todo = withAmount.filter((r) => !have.has(r.id));
  if (!todo.length) return;
  const seq = await m.seq.reserve(companyId, 'entry', todo.length);
  const src = await m.seq.reserve(companyId, 'opening', todo.length);
  const date = today();
  await m.entries.collection.insertMany(
    todo.map((r, i) =>
      castForInsert(m.entries as never, {
        companyId,
        seq: seq + i,
        partyKind: kind,
        partyId: r.id,
        entryKind: 'opening',
        sourceKind: 'opening',
        sourceId: src + i,
        amount: r.amount,
        paid: '0',
        delta: r.amount,
        date,
        dueDate: null,
        createdAt: new Date(),
      }),
    ),
    { session },
  );
}

type PartyDto = CustomerDto | DistributorDto;

/** One row checked as the party's form checks it: the DTO, the GST rules and the opening balance. */
async function checkRow<D extends PartyDto>(kind: 'customer' | 'distributor', Dto: new () => D, fields: ImportFieldDef[], data: Record<string, string>, company: PartyCompany) {
  const { opening_balance, ...form } = data;
  // A row's names and addresses are cleaned as the form's are (service-kit strips HTTP bodies).
  const body = { country: 'India', ...Object.fromEntries(Object.entries(form).filter(([, v]) => v !== '').map(([k, v]) => [k, stripBidi(v)])) };
  const dto = plainToInstance(Dto, body);
  const errors = messages(await validate(dto, { whitelist: true, forbidNonWhitelisted: true }), fields);
  const ob = openingOf(opening_balance);
  if (ob.error) errors.push({ field: 'Opening balance', reason: ob.error });
  if (!errors.some((e) => e.field === 'PIN code' || e.field === 'Country')) {
    try {
      checkPartyPin(kind, dto, company);
    } catch (err) {
      errors.push({ field: 'PIN code', reason: reasonOf(err) });
    }
  }
  let gst: ReturnType<typeof checkPartyGst> | null = null;
  if (!errors.some((e) => e.field === 'State' || e.field === 'GSTIN')) {
    try {
      gst = checkPartyGst(kind, dto);
    } catch (err) {
      errors.push({ field: 'GSTIN', reason: reasonOf(err) });
    }
  }
  return { dto, errors, ob, gst };
}

const partyFields = (dto: PartyDto, gst: ReturnType<typeof checkPartyGst>) => ({
  name: dto.name,
  address_line_1: dto.address_line_1,
  address_line_2: dto.address_line_2 ?? '',
  city_or_district: dto.city_or_district,
  state: gst.state,
  gstin: gst.gstin,
  country: dto.country,
  postal_code: dto.postal_code,
});

/** New parties get ids in one reservation, matched ones are updated, openings post once each. */
async function applyRows(
  m: PartyModels,
  companyId: number,
  kind: 'customer' | 'distributor',
  rows: { value: PartyRow }[],
  session: ClientSession,
  doc: (r: { value: PartyRow }, id: number) => Record<string, unknown>,
) {
  const model = (kind === 'customer' ? m.customers : m.distributors) as unknown as Model<unknown>;
  const idField = kind === 'customer' ? 'client_id' : 'distributor_id';
  const fresh = rows.filter((r) => r.value.existing === undefined);
  let id = fresh.length ? await m.seq.reserve(companyId, kind, fresh.length) : 0;
  const now = new Date();
  const openings: { id: number; amount: string }[] = [];
  const inserts = fresh.map((r) => {
    const newId = id++;
    if (r.value.opening) openings.push({ id: newId, amount: r.value.opening });
    return castForInsert(model as never, { companyId, ...doc(r, newId), createdAt: now, updatedAt: now });
  });
  const updates = rows
    .filter((r) => r.value.existing !== undefined)
    .map((r) => {
      if (r.value.opening) openings.push({ id: r.value.existing!, amount: r.value.opening });
      // With its party.changed event, published after the import's commit (the relay's sweep).
      return { updateOne: { filter: { companyId, [idField]: r.value.existing }, update: { $set: { ...r.value.fields, updatedAt: now, ...pendingEventFields() } } } };
    });
  if (inserts.length) await model.collection.insertMany(inserts as never[], { session });
  if (updates.length) await model.collection.bulkWrite(updates as never, { session });
  await postOpenings(m, companyId, kind, openings, session);
  return { created: inserts.length, updated: updates.length };
}

/** Customers, checked by the customer form's DTO and GST rules; a mobile number the company has updates that customer. */
export function customerImportHandler(m: PartyModels): ImportHandler<Ctx, PartyRow> {
  return {
    kind: 'customers',
    fields: CUSTOMER_FIELDS,
    matchBy: 'mobile number: a row whose mobile a customer already has updates that customer (an opening balance is posted once per customer).',
    async begin(companyId) {
      return { companyId, company: await m.company(companyId), seen: new Map() };
    },
    async check(ctx, rows) {
      const out: (RowOutcome<PartyRow> & { mobile?: string })[] = [];
      for (const { row, data } of rows) {
        const { dto, errors, ob, gst } = await checkRow('customer', CustomerDto, CUSTOMER_FIELDS, data, ctx.company);
        const mobile = typeof dto.mobile_no === 'string' ? tenDigits(dto.mobile_no) : '';
        if (mobile === WALK_IN_MOBILE) errors.push({ field: 'Mobile', reason: `Mobile number ${WALK_IN_MOBILE} is reserved for the walk-in customer.` });
        if (mobile && !errors.some((e) => e.field === 'Mobile')) {
          const first = ctx.seen.get(mobile);
          if (first !== undefined) errors.push({ field: 'Mobile', reason: `Mobile number ${mobile} is already on row ${first} of this file.` });
          else ctx.seen.set(mobile, row);
        }
        if (errors.length || !gst) {
          out.push({ row, errors });
          continue;
        }
        out.push({
          row,
          mobile,
          value: {
            key: mobile,
            opening: ob.value,
            fields: partyFields(dto, gst),
          },
        });
      }
      const mobiles = out.filter((o) => o.value).map((o) => o.value!.key);
      if (mobiles.length) {
        const found = await m.customers.find({ companyId: ctx.companyId, mobile_no: { $in: mobiles }, walkIn: false }, { mobile_no: 1, client_id: 1 }).lean();
        const by = new Map(found.map((c) => [c.mobile_no, c.client_id]));
        for (const o of out) {
          const id = o.value ? by.get(o.value.key) : undefined;
          if (id !== undefined) {
            o.value!.existing = id;
            o.update = true;
          }
        }
      }
      return out;
    },
    apply: (ctx, rows, session) =>
      applyRows(m, ctx.companyId, 'customer', rows, session, (r, client_id) => ({ client_id, mobile_no: r.value.key, walkIn: false, ...r.value.fields })),
  };
}

const lower = (s: unknown) => String(s ?? '').trim().toLowerCase();

/**
 * Distributors, checked by the distributor form's DTO and GST rules. A row matches an existing
 * distributor by GSTIN when it has one, else by name and city (any case); a match is updated.
 */
export function distributorImportHandler(m: PartyModels): ImportHandler<Ctx, PartyRow> {
  return {
    kind: 'distributors',
    fields: DISTRIBUTOR_FIELDS,
    matchBy: 'GSTIN when the row has one, else name and city (any case): a match updates that distributor (an opening balance is posted once per distributor).',
    async begin(companyId) {
      return { companyId, company: await m.company(companyId), seen: new Map() };
    },
    async check(ctx, rows) {
      const out: RowOutcome<PartyRow>[] = [];
      for (const { row, data } of rows) {
        const { dto, errors, ob, gst } = await checkRow('distributor', DistributorDto, DISTRIBUTOR_FIELDS, data, ctx.company);
        const key = gst?.gstin ? `gstin:${gst.gstin}` : `name:${lower(dto.name)}|${lower(dto.city_or_district)}`;
        if (gst && !errors.length) {
          const first = ctx.seen.get(key);
          if (first !== undefined) errors.push({ field: gst.gstin ? 'GSTIN' : 'Name', reason: `The same distributor is already on row ${first} of this file.` });
          else ctx.seen.set(key, row);
        }
        if (errors.length || !gst) {
          out.push({ row, errors });
          continue;
        }
        out.push({
          row,
          value: {
            key,
            opening: ob.value,
            fields: partyFields(dto, gst),
          },
        });
      }
      const valid = out.filter((o) => o.value);
      if (valid.length) {
        const gstins = valid.filter((o) => o.value!.fields.gstin).map((o) => o.value!.fields.gstin as string);
        const names = valid.map((o) => new RegExp(`^${String(o.value!.fields.name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i'));
        const found = await m.distributors
          .find({ companyId: ctx.companyId, $or: [{ gstin: { $in: gstins } }, { name: { $in: names } }] }, { distributor_id: 1, gstin: 1, name: 1, city_or_district: 1 })
          .lean();
        const by = new Map<string, number>();
        for (const d of found) {
          if (d.gstin) by.set(`gstin:${d.gstin}`, d.distributor_id);
          by.set(`name:${lower(d.name)}|${lower(d.city_or_district)}`, d.distributor_id);
        }
        for (const o of valid) {
          const id = by.get(o.value!.key);
          if (id !== undefined) {
            o.value!.existing = id;
            o.update = true;
          }
        }
      }
      return out;
    },
    apply: (ctx, rows, session) =>
      applyRows(m, ctx.companyId, 'distributor', rows, session, (r, distributor_id) => ({ distributor_id, officers: [], ...r.value.fields })),
  };
}
