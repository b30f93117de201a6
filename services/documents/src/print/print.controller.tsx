import { BadGatewayException, BadRequestException, Body, Controller, Headers, HttpCode, Inject, NotFoundException, Param, Post, ServiceUnavailableException } from '@nestjs/common';
import { createConnection } from 'node:net';
import type { Logger } from 'pino';
import { PNG } from 'pngjs';
import { renderToStaticMarkup } from 'react-dom/server';
import { DocumentSubjects as S, Languages, PRINTER_TIMEOUT_MS, printerHostProblem, Subjects, type NetworkPrinter, type PrintBillReply, type PrintersReply, type SaleDocument } from '@bahi/contracts';
import { intParam, LOGGER, NatsClient, Tenant } from '@bahi/service-kit';
import { DOCUMENTS_CONFIG, type DocumentsConfig } from '../config';
import { Printer } from '../core.module';
import { CompanyHeaders } from '../documents/company';
import type { CompanyView } from '../templates/model';
import { billFigures } from '../templates/sale-docs';
import { gstAccount } from '../templates/tax-invoice';
import { ThermalBillTemplate, ThermalTaxInvoiceTemplate, type ThermalFormat } from '../templates/thermal';
import { DOTS, encodeBill, type Raster } from './escpos';

/** Sends the bytes and waits until the printer took them; rejects on refusal, error or the deadline. */
export function sendToPrinter(host: string, port: number, bytes: Uint8Array, timeoutMs = PRINTER_TIMEOUT_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('error', (err) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    });
    socket.once('connect', () => {
      socket.end(bytes, () => {
        clearTimeout(timer);
        socket.destroy();
        resolve();
      });
    });
  });
}

/** The Hindi receipt as a 1-bit-ready bitmap: the roll template (without its QR, sent as GS ( k) drawn at the printer's dots. */
async function hindiRaster(printers: Printer, p: NetworkPrinter, company: CompanyView, sale: SaleDocument): Promise<Raster> {
  const format: ThermalFormat = p.width === 58 ? 'thermal-58' : 'thermal-80';
  const c = { ...company, docLanguage: 'hi' as const };
  const element = sale.gst ? <ThermalTaxInvoiceTemplate format={format} company={c} sale={sale} gst={sale.gst} account={gstAccount(sale, sale.gst)} upi={null} /> : <ThermalBillTemplate format={format} company={c} sale={sale} figures={billFigures(sale)} upi={null} />;
  const png = await printers.pool.render(`<!DOCTYPE html>${renderToStaticMarkup(element)}`, { width: `${p.width}mm`, height: '100mm', png: { dots: DOTS[p.width] } });
  const img = PNG.sync.read(png);
  // ESC/POS raster rows go in bands of 8 dots: the height padded with white.
  const width = DOTS[p.width];
  const height = Math.ceil(img.height / 8) * 8;
  const data = new Uint8Array(width * height * 4).fill(255);
  for (let y = 0; y < img.height; y++) data.set(img.data.subarray(y * img.width * 4, y * img.width * 4 + Math.min(width, img.width) * 4), y * width * 4);
  return { width, height, data };
}

/**
 * POST /print/bill/{saleId} { printer_id, lang? }: the bill straight to a network thermal printer
 * (ESC/POS over TCP, no dialog). The sale is already saved; a silent printer is a 502 within 3 s.
 */
@Controller('print')
export class PrintController {
  private readonly headers: CompanyHeaders;

  constructor(
    private readonly nats: NatsClient,
    private readonly printers: Printer,
    @Inject(DOCUMENTS_CONFIG) private readonly cfg: DocumentsConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.headers = new CompanyHeaders((companyId) => this.nats.send(Subjects.identity.companyDetails, { companyId }), cfg.identityUrl, (m) => logger.warn(m));
  }

  /** The company's printers from identity, asked with the caller's own token (identity scopes them by it). */
  private async printerList(authorization: string | undefined): Promise<NetworkPrinter[]> {
    try {
      const res = await fetch(`${this.cfg.identityUrl}/printers`, { headers: { authorization: authorization ?? '' }, signal: AbortSignal.timeout(3000) });
      if (!res.ok) throw new Error(`identity answered ${res.status}`);
      return ((await res.json()) as PrintersReply).printers;
    } catch (err) {
      this.logger.warn({ err }, 'printer list not loaded');
      throw new ServiceUnavailableException('The printer settings could not be read just now; the bill is saved, print it from the bill view.');
    }
  }

  @Post('bill/:saleId')
  @HttpCode(200)
  async bill(@Tenant() companyId: number, @Headers('authorization') authorization: string | undefined, @Param('saleId', intParam('saleId')) saleId: number, @Body() body: unknown): Promise<PrintBillReply> {
    const b = (body && typeof body === 'object' ? body : {}) as { printer_id?: unknown; lang?: unknown };
    if (!Number.isInteger(b.printer_id) || (b.printer_id as number) < 1) throw new BadRequestException('Choose the printer: printer_id must be the number of one of the company\'s printers.');
    if (b.lang !== undefined && !(Languages as readonly unknown[]).includes(b.lang)) throw new BadRequestException(`lang must be one of ${Languages.join(', ')}.`);
    const printer = (await this.printerList(authorization)).find((p) => p.id === b.printer_id);
    if (!printer) throw new NotFoundException(`There is no printer ${String(b.printer_id)}; choose one in Setting > Printers.`);
    // identity checked the address when it was saved; checked again before any byte leaves.
    const hostProblem = printerHostProblem(printer.host);
    if (hostProblem) throw new BadRequestException(hostProblem);
    const [company, sale] = await Promise.all([this.headers.get(companyId), this.nats.send(S.saleDocument, { companyId, saleId })]);
    if (!sale) throw new NotFoundException(`Bill ${saleId} was not found.`);
    const lang = (b.lang as string | undefined) ?? company.docLanguage;
    const raster = lang === 'hi' ? await hindiRaster(this.printers, printer, company, sale) : null;
    const bytes = encodeBill(printer, company, sale, raster);
    try {
      await sendToPrinter(printer.host, printer.port, bytes);
    } catch (err) {
      this.logger.warn({ err, printer: printer.id }, 'printer did not answer');
      throw new BadGatewayException(`Printer ${printer.name} did not answer; the bill is saved, print it from the bill view.`);
    }
    return { ok: true };
  }
}
