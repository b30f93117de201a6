import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { WALK_IN_MOBILE, type Customer } from '@bahi/contracts';
import { pendingEventFields, SequenceService } from '@bahi/service-kit';
import { escapeRegex, PAGE_SIZE, tenDigits } from '../common';
import { checkPartyGst, partyGst } from '../gst-party';
import { CustomerDoc } from './customer.schema';
import type { CustomerDto } from './customers.dto';
import { LedgerEvents } from '../events/ledger-events';

export const WALK_IN_NAME = 'Unknown';

type Stored = CustomerDoc & { _id?: unknown };

export function toCustomer(c: Stored): Customer {
  return {
    id: c.client_id,
    client_id: c.client_id,
    name: c.name,
    mobile_no: c.mobile_no,
    address_line_1: c.address_line_1,
    address_line_2: c.address_line_2,
    city_or_district: c.city_or_district,
    country: c.country,
    postal_code: c.postal_code,
    // state: the name (parsed on read, so old 'MH' rows read right); state_code, gstin, b2b added.
    ...partyGst(c),
    ...(c.walkIn ? { walkIn: true } : {}),
  };
}

const dup = (mobile: string) =>
  mobile === WALK_IN_MOBILE
    ? `Mobile number ${WALK_IN_MOBILE} is reserved for the walk-in customer.`
    : `A customer with mobile number ${mobile} already exists.`;

@Injectable()
export class CustomersService {
  private readonly walkIns = new Map<number, Customer>();

  constructor(
    @InjectModel(CustomerDoc.name) readonly model: Model<CustomerDoc>,
    private readonly seq: SequenceService,
    private readonly events: LedgerEvents,
  ) {}

  async create(companyId: number, dto: CustomerDto): Promise<Customer> {
    const mobile = tenDigits(dto.mobile_no);
    const gst = checkPartyGst('customer', dto);
    if (mobile === WALK_IN_MOBILE || (await this.model.exists({ companyId, mobile_no: mobile }))) throw new ConflictException(dup(mobile));
    const client_id = await this.seq.next(companyId, 'customer');
    try {
      const doc = await this.model.create({
        companyId,
        client_id,
        name: dto.name,
        mobile_no: mobile,
        address_line_1: dto.address_line_1,
        address_line_2: dto.address_line_2 ?? '',
        city_or_district: dto.city_or_district,
        state: gst.state,
        gstin: gst.gstin,
        country: dto.country,
        postal_code: dto.postal_code,
      });
      this.events.relay.kick('customer');
      return toCustomer(doc.toObject());
    } catch (err) {
      if ((err as { code?: number }).code === 11000) throw new ConflictException(dup(mobile));
      throw err;
    }
  }

  /** Updates everything but the mobile number, which is locked once a customer exists. */
  async update(companyId: number, id: number, dto: Omit<CustomerDto, 'mobile_no'> & { mobile_no?: string }): Promise<Customer> {
    const existing = await this.model.findOne({ companyId, client_id: id, walkIn: false }).lean();
    if (!existing) throw new NotFoundException(`Customer ${id} not found.`);
    if (dto.mobile_no !== undefined && tenDigits(dto.mobile_no) !== existing.mobile_no) {
      throw new ConflictException('The mobile number of an existing customer cannot be changed.');
    }
    const gst = checkPartyGst('customer', dto, existing.gstin ?? null);
    const doc = await this.model
      .findOneAndUpdate(
        { companyId, client_id: id },
        {
          $set: {
            name: dto.name,
            address_line_1: dto.address_line_1,
            address_line_2: dto.address_line_2 ?? '',
            city_or_district: dto.city_or_district,
            state: gst.state,
            gstin: gst.gstin,
            country: dto.country,
            postal_code: dto.postal_code,
            // Its party.changed event (the name reports shows), published after this write.
            ...pendingEventFields(),
          },
        },
        { returnDocument: 'after' },
      )
      .lean();
    this.events.relay.kick('customer');
    return toCustomer(doc!);
  }

  /** A customer of the company, walk-in included; 404 for unknown ids (and other companies' ids). */
  async get(companyId: number, id: number): Promise<Customer> {
    const c = await this.model.findOne({ companyId, client_id: id }).lean();
    if (!c) throw new NotFoundException(`Customer ${id} not found.`);
    return toCustomer(c);
  }

  async find(companyId: number, id: number): Promise<Customer | null> {
    const c = await this.model.findOne({ companyId, client_id: id }).lean();
    return c ? toCustomer(c) : null;
  }

  /**
   * The company's walk-in customer ('Unknown' in the cart), created on first use. It is never
   * edited (edits skip it) nor deleted, so it is kept in memory once read: most counter sales are
   * the walk-in's, and each asked for it twice.
   */
  async walkIn(companyId: number): Promise<Customer> {
    const known = this.walkIns.get(companyId);
    if (known) return { ...known };
    const c = await this.readOrCreateWalkIn(companyId);
    this.walkIns.set(companyId, c);
    return { ...c };
  }

  /** True when `id` is the company's walk-in customer as already read (no database read). */
  isKnownWalkIn(companyId: number, id: number): boolean {
    return this.walkIns.get(companyId)?.client_id === id;
  }

  private async readOrCreateWalkIn(companyId: number): Promise<Customer> {
    const found = await this.model.findOne({ companyId, walkIn: true }).lean();
    if (found) return toCustomer(found);
    const client_id = await this.seq.next(companyId, 'customer');
    try {
      const doc = await this.model.create({ companyId, client_id, name: WALK_IN_NAME, mobile_no: WALK_IN_MOBILE, walkIn: true });
      return toCustomer(doc.toObject());
    } catch (err) {
      // A concurrent first use created it: the unique mobile index kept it single.
      if ((err as { code?: number }).code !== 11000) throw err;
      const again = await this.model.findOne({ companyId, walkIn: true }).lean();
      if (!again) throw err;
      return toCustomer(again);
    }
  }

  /** Search from 3 characters on name or mobile (or an exact id); the walk-in is never listed. */
  async search(companyId: number, text: string, limit = 20): Promise<Customer[]> {
    const t = text.trim();
    if (t.length < 3) return [];
    const rx = new RegExp(escapeRegex(t), 'i');
    const or: Record<string, unknown>[] = [{ name: rx }, { mobile_no: rx }];
    if (/^\d+$/.test(t)) or.push({ client_id: Number(t) });
    const list = await this.model.find({ companyId, walkIn: false, $or: or }).sort({ name: 1, client_id: 1 }).limit(limit).lean();
    return list.map(toCustomer);
  }

  async page(companyId: number, pageNo: number): Promise<{ rows: Customer[]; noOfPages: number }> {
    const filter = { companyId, walkIn: false };
    const total = await this.model.countDocuments(filter);
    const rows = await this.model.find(filter).sort({ client_id: -1 }).skip(pageNo * PAGE_SIZE).limit(PAGE_SIZE).lean();
    return { rows: rows.map(toCustomer), noOfPages: Math.ceil(total / PAGE_SIZE) };
  }

  async all(companyId: number): Promise<Customer[]> {
    const rows = await this.model.find({ companyId, walkIn: false }).sort({ name: 1 }).lean();
    return rows.map(toCustomer);
  }
}
