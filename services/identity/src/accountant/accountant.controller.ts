import { BadRequestException, Body, Controller, Get, Put } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { Model } from 'mongoose';
import { Subjects, TALLY_LEDGERS, TALLY_NAME_MAX, tallyLedgerNames, type AccountantLedgersNames, type AccountantLedgersReply } from '@bahi/contracts';
import { CompanyMsg, Positions, Tenant } from '@bahi/service-kit';
import { AccountantLedgers } from './accountant.schema';

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const DEFS = new Map(TALLY_LEDGERS.map((l) => [l.key, l]));

/**
 * The changed names a PUT body leads to, merged over the stored ones: '' puts the default back,
 * a key left out is kept. 400 naming the ledger for an unknown key, a name that is not text,
 * too long, or has characters Tally refuses in a name; or two ledgers given one name (Tally
 * would merge them).
 */
export function mergeLedgerNames(stored: Record<string, string>, body: unknown): Record<string, string> {
  if (!isObj(body) || !isObj(body.ledgers)) throw new BadRequestException('Send the ledger names as { "ledgers": { "cash": "Cash in Hand", ... } }.');
  const out = { ...stored };
  for (const [key, raw] of Object.entries(body.ledgers)) {
    const def = DEFS.get(key);
    if (!def) throw new BadRequestException(`"${key}" is not one of Bahi's ledgers.`);
    if (typeof raw !== 'string') throw new BadRequestException(`The Tally name for ${def.name} must be text.`);
    const name = raw.trim().replace(/\s+/g, ' ');
    if (name.length > TALLY_NAME_MAX) throw new BadRequestException(`The Tally name for ${def.name} is longer than ${TALLY_NAME_MAX} characters.`);
    // Control characters cannot be typed into a Tally ledger name.
    if (/[\u0000-\u001f\u007f]/.test(name)) throw new BadRequestException(`The Tally name for ${def.name} has a character Tally does not accept.`);
    if (!name || name === def.name) delete out[key];
    else out[key] = name;
  }
  const seen = new Map<string, string>();
  for (const def of TALLY_LEDGERS) {
    const name = (out[def.key] || def.name).toLowerCase();
    const other = seen.get(name);
    if (other) throw new BadRequestException(`${DEFS.get(other)!.name} and ${def.name} would both be "${out[def.key] || def.name}" in Tally; give each its own name.`);
    seen.set(name, def.key);
  }
  return out;
}

function reply(names: Record<string, string>): AccountantLedgersReply {
  const all = tallyLedgerNames(names);
  return { ledgers: TALLY_LEDGERS.map((l) => ({ key: l.key, group: l.group, default_name: l.name, name: all[l.key]! })) };
}

/** Setting > Accountant: Bahi's ledgers and the names the accountant's Tally company has for them. */
@Controller()
export class AccountantController {
  constructor(@InjectModel(AccountantLedgers.name) private readonly model: Model<AccountantLedgers>) {}

  private async stored(companyId: number): Promise<Record<string, string>> {
    return (await this.model.findOne({ companyId }).lean())?.names ?? {};
  }

  @Get('accountant/ledgers')
  @Positions('manager')
  async get(@Tenant() companyId: number): Promise<AccountantLedgersReply> {
    return reply(await this.stored(companyId));
  }

  @Put('accountant/ledgers')
  @Positions('manager')
  async set(@Tenant() companyId: number, @Body() body: unknown): Promise<AccountantLedgersReply> {
    const names = mergeLedgerNames(await this.stored(companyId), body);
    await this.model.updateOne({ companyId }, { $set: { names } }, { upsert: true });
    return reply(names);
  }

  /** reports' Tally export: every key with the name in use. */
  @MessagePattern(Subjects.tally.accountantLedgers)
  async names(@Payload() msg: CompanyMsg): Promise<AccountantLedgersNames> {
    return { names: tallyLedgerNames(await this.stored(msg.companyId)) };
  }
}
