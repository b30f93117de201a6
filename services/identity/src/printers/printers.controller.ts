import { BadRequestException, Body, Controller, Get, Put } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import {
  DEFAULT_PRINTER_PORT,
  MAX_PRINTERS,
  PrinterEncodings,
  printerHostProblem,
  PrinterWidths,
  type NetworkPrinter,
  type PrinterEncoding,
  type PrintersReply,
  type PrinterWidth,
} from '@bahi/contracts';
import { Positions, Tenant } from '@bahi/service-kit';
import { CompanyPrinters } from './printers.schema';

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const FIELDS = new Set(['id', 'name', 'host', 'port', 'width', 'encoding']);

/** The PUT body checked field by field; a sentence names the printer and the field at fault. */
export function parsePrinters(body: unknown): NetworkPrinter[] {
  if (!isObj(body) || !Array.isArray(body.printers)) throw new BadRequestException('Send the printers as a list, each with a name, host, port and width.');
  const list = body.printers as unknown[];
  if (list.length > MAX_PRINTERS) throw new BadRequestException(`A company can have at most ${MAX_PRINTERS} printers.`);
  const out: NetworkPrinter[] = [];
  list.forEach((raw, i) => {
    const at = `Printer ${i + 1}`;
    if (!isObj(raw)) throw new BadRequestException(`${at} must have a name, host, port and width.`);
    const extra = Object.keys(raw).find((k) => !FIELDS.has(k));
    if (extra) throw new BadRequestException(`${at}: "${extra}" is not a printer setting.`);
    const name = typeof raw.name === 'string' ? raw.name.trim() : '';
    if (!name || name.length > 40) throw new BadRequestException(`${at} needs a name of 1 to 40 characters, like Counter 1.`);
    const host = typeof raw.host === 'string' ? raw.host.trim() : '';
    const hostProblem = printerHostProblem(host);
    if (hostProblem) throw new BadRequestException(`${name}: ${hostProblem}`);
    const port = raw.port ?? DEFAULT_PRINTER_PORT;
    if (!Number.isInteger(port) || (port as number) < 1024 || (port as number) > 65535) throw new BadRequestException(`${name}: the port must be a whole number from 1024 to 65535 (usually 9100).`);
    const width = raw.width ?? 80;
    if (!(PrinterWidths as readonly unknown[]).includes(width)) throw new BadRequestException(`${name}: the paper width must be 58 or 80 (mm).`);
    const encoding = raw.encoding ?? 'cp437';
    if (!(PrinterEncodings as readonly unknown[]).includes(encoding)) throw new BadRequestException(`${name}: the encoding must be one of ${PrinterEncodings.join(', ')}.`);
    const id = raw.id;
    if (id !== undefined && (!Number.isInteger(id) || (id as number) < 1 || (id as number) > 9999)) throw new BadRequestException(`${name}: id must be a whole number from 1 to 9999, or left out for a new printer.`);
    if (out.some((p) => p.name.toLowerCase() === name.toLowerCase())) throw new BadRequestException(`Two printers are named ${name}; give each its own name.`);
    out.push({ id: (id as number | undefined) ?? 0, name, host, port: port as number, width: width as PrinterWidth, encoding: encoding as PrinterEncoding });
  });
  const ids = out.filter((p) => p.id).map((p) => p.id);
  if (new Set(ids).size !== ids.length) throw new BadRequestException('Two printers have the same id.');
  let next = Math.max(0, ...ids);
  for (const p of out) if (!p.id) p.id = ++next;
  return out;
}

/** Setting > Printers: every counter PC reads the list and picks its own; managers edit it. */
@Controller('printers')
export class PrintersController {
  constructor(@InjectModel(CompanyPrinters.name) private readonly model: Model<CompanyPrinters>) {}

  @Get()
  async list(@Tenant() companyId: number): Promise<PrintersReply> {
    const doc = await this.model.findOne({ companyId }).lean();
    return { printers: doc?.printers ?? [] };
  }

  @Put()
  @Positions('manager')
  async set(@Tenant() companyId: number, @Body() body: unknown): Promise<PrintersReply> {
    const printers = parsePrinters(body);
    await this.model.updateOne({ companyId }, { $set: { printers } }, { upsert: true });
    return { printers };
  }
}
