import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { CompanyDetails } from '@bahi/contracts';
import { SequenceService } from '@bahi/service-kit';
import { PLATFORM } from '../users/users.service';
import { Company, type CompanyDocument } from './company.schema';

export function companyDetails(c: Company): CompanyDetails {
  return {
    id: c.id,
    name: c.name,
    add1: c.add1 ?? '',
    add2: c.add2 ?? '',
    mob1: c.mob1 ?? '',
    mob2: c.mob2 ?? '',
    email: c.email ?? '',
    logo: c.logo ? `/companyLogo/${c.id}` : null,
    upiId: c.upiId ?? null,
  };
}

@Injectable()
export class CompaniesService {
  constructor(
    @InjectModel(Company.name) readonly model: Model<Company>,
    private readonly seq: SequenceService,
  ) {}

  async get(id: number): Promise<CompanyDocument> {
    const c = await this.model.findOne({ id });
    if (!c) throw new NotFoundException(`Company ${id} not found.`);
    return c;
  }

  async create(input: Partial<Company> & { name: string }): Promise<Company> {
    const id = await this.seq.next(PLATFORM, 'company');
    return (await this.model.create({ ...input, id })).toObject();
  }
}
