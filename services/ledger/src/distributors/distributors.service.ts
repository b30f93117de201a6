import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { Distributor, Officer } from '@bahi/contracts';
import { pendingEventFields, SequenceService } from '@bahi/service-kit';
import { PAGE_SIZE, tenDigits } from '../common';
import { checkPartyGst, partyGst } from '../gst-party';
import { DistributorDoc, type OfficerDoc } from './distributor.schema';
import type { DistributorDto, OfficerDto } from './distributors.dto';
import { LedgerEvents } from '../events/ledger-events';

export function toDistributor(d: DistributorDoc): Distributor {
  return {
    id: d.distributor_id,
    distributor_id: d.distributor_id,
    name: d.name,
    address_line_1: d.address_line_1,
    address_line_2: d.address_line_2,
    city_or_district: d.city_or_district,
    country: d.country,
    postal_code: d.postal_code,
    // state: the name (parsed on read, so old 'WB' rows read right); state_code, gstin, b2b added.
    ...partyGst(d),
    officers: (d.officers ?? []).map((o) => toOfficer(d.distributor_id, o)),
  };
}

export const toOfficer = (distributorId: number, o: OfficerDoc): Officer => ({ id: o.id, distributor_id: distributorId, name: o.name, mobile: o.mobile });

@Injectable()
export class DistributorsService {
  constructor(
    @InjectModel(DistributorDoc.name) readonly model: Model<DistributorDoc>,
    private readonly seq: SequenceService,
    private readonly events: LedgerEvents,
  ) {}

  /** Officers keep their id when it is one of this distributor's; others get new ids. */
  private async officers(companyId: number, input: OfficerDto[], existing: OfficerDoc[]): Promise<OfficerDoc[]> {
    const known = new Set(existing.map((o) => o.id));
    const out: OfficerDoc[] = [];
    for (const o of input) {
      const id = o.id && known.has(o.id) ? o.id : await this.seq.next(companyId, 'officer');
      out.push({ id, name: o.name, mobile: o.mobile ? tenDigits(o.mobile) : '' });
    }
    return out;
  }

  private fields(dto: DistributorDto, currentGstin: string | null) {
    const gst = checkPartyGst('distributor', dto, currentGstin);
    return {
      name: dto.name,
      address_line_1: dto.address_line_1,
      address_line_2: dto.address_line_2 ?? '',
      city_or_district: dto.city_or_district,
      state: gst.state,
      gstin: gst.gstin,
      country: dto.country,
      postal_code: dto.postal_code,
    };
  }

  async create(companyId: number, dto: DistributorDto): Promise<Distributor> {
    const fields = this.fields(dto, null);
    const officers = await this.officers(companyId, dto.officers ?? [], []);
    const distributor_id = await this.seq.next(companyId, 'distributor');
    const doc = await this.model.create({ companyId, distributor_id, ...fields, officers });
    this.events.relay.kick('distributor');
    return toDistributor(doc.toObject());
  }

  async update(companyId: number, id: number, dto: DistributorDto): Promise<Distributor> {
    const existing = await this.model.findOne({ companyId, distributor_id: id }).lean();
    if (!existing) throw new NotFoundException(`Distributor ${id} not found.`);
    // With its party.changed event (the name reports shows), published after this write.
    const set: Record<string, unknown> = { ...this.fields(dto, existing.gstin ?? null), ...pendingEventFields() };
    if (dto.officers) set.officers = await this.officers(companyId, dto.officers, existing.officers ?? []);
    const doc = await this.model.findOneAndUpdate({ companyId, distributor_id: id }, { $set: set }, { returnDocument: 'after' }).lean();
    this.events.relay.kick('distributor');
    return toDistributor(doc!);
  }

  async get(companyId: number, id: number): Promise<Distributor> {
    const d = await this.find(companyId, id);
    if (!d) throw new NotFoundException(`Distributor ${id} not found.`);
    return d;
  }

  async find(companyId: number, id: number): Promise<Distributor | null> {
    const d = await this.model.findOne({ companyId, distributor_id: id }).lean();
    return d ? toDistributor(d) : null;
  }

  async page(companyId: number, pageNo: number): Promise<{ rows: Distributor[]; noOfPages: number }> {
    const total = await this.model.countDocuments({ companyId });
    const rows = await this.model.find({ companyId }).sort({ distributor_id: -1 }).skip(pageNo * PAGE_SIZE).limit(PAGE_SIZE).lean();
    return { rows: rows.map(toDistributor), noOfPages: Math.ceil(total / PAGE_SIZE) };
  }

  async all(companyId: number): Promise<Distributor[]> {
    const rows = await this.model.find({ companyId }).sort({ name: 1 }).lean();
    return rows.map(toDistributor);
  }
}
