import { BadRequestException, Body, Controller, Get, Headers, HttpCode, Post, Query } from '@nestjs/common';
import type { CancelSaleReply, CreditNoteDetails, CreditNoteListReply, ReturnPreviewReply, SalesReturnReply } from '@bahi/contracts';
import { Decimal, Limits, Positions } from '@bahi/service-kit';
import { CurrentWho, type Who } from '../common/who';
import { CancelService } from './cancel.service';
import { CancelSaleDto, CreditNoteListQuery, CreditNoteQuery, PreviewReturnQuery, SalesReturnDto } from './returns.dto';
import { ReturnsService } from './returns.service';
import type { ReturnLine } from './value';

const DECIMAL = /^-?(\d+(\.\d*)?|\.\d+)$/;

/** The request's lines as {sl_no, quantity}; 400 naming the line for a malformed one. */
function parseLines(raw: unknown[]): ReturnLine[] {
  return raw.map((x, i) => {
    const o = (x ?? {}) as { sl_no?: unknown; quantity?: unknown };
    const sl = Number(o.sl_no);
    if (typeof x !== 'object' || x === null || !Number.isInteger(sl) || sl < 1 || sl > Limits.maxId) throw new BadRequestException(`lines[${i}]: sl_no must be the bill line's number.`);
    const q = typeof o.quantity === 'number' ? String(o.quantity) : typeof o.quantity === 'string' ? o.quantity.trim() : '';
    if (!DECIMAL.test(q) || q.length > Limits.maxNumberChars) throw new BadRequestException(`Line ${sl}: quantity must be a number.`);
    return { sl_no: sl, quantity: new Decimal(q) };
  });
}

/** `3:1,5:2` (sl_no:packs, as GET /previewReturn takes them) as the return's lines. */
function parseLineList(text: string): ReturnLine[] {
  const parts = text.split(',').map((p) => p.trim()).filter(Boolean);
  if (!parts.length) throw new BadRequestException('Choose at least one line to return.');
  if (parts.length > 200) throw new BadRequestException('A return may hold at most 200 lines.');
  return parseLines(
    parts.map((p) => {
      const m = /^(\d+):(.+)$/.exec(p);
      if (!m) throw new BadRequestException(`lines: "${p.slice(0, 20)}" must be line:quantity, as 3:1.`);
      return { sl_no: m[1], quantity: m[2] };
    }),
  );
}

@Controller()
export class ReturnsController {
  constructor(
    private readonly returns: ReturnsService,
    private readonly cancels: CancelService,
  ) {}

  /** A sales return: a credit note. The Idempotency-Key header (or body field) makes a retry apply once. */
  @Post('salesReturn')
  @HttpCode(200)
  @Positions('manager')
  salesReturn(@CurrentWho() who: Who, @Body() dto: SalesReturnDto, @Headers('idempotency-key') key?: string): Promise<SalesReturnReply> {
    const k = key?.trim().slice(0, 100) || dto.idempotencyKey;
    return this.returns.salesReturn(who, { saleId: dto.saleId, lines: parseLines(dto.lines), refund: dto.refund, payments: dto.payments, idempotencyKey: k, reason: dto.reason });
  }

  /** What a return would credit, before it is made (the return dialog shows it); every position may look. */
  @Get('previewReturn')
  previewReturn(@CurrentWho() who: Who, @Query() q: PreviewReturnQuery): Promise<ReturnPreviewReply> {
    return this.returns.preview(who.companyId, q.saleId, parseLineList(q.lines));
  }

  @Get('getCreditNoteList')
  list(@CurrentWho() who: Who, @Query() q: CreditNoteListQuery): Promise<CreditNoteListReply> {
    return this.returns.list(who.companyId, q.pageNo ?? 0);
  }

  @Get('getCreditNoteDetails')
  details(@CurrentWho() who: Who, @Query() q: CreditNoteQuery): Promise<CreditNoteDetails> {
    return this.returns.detailsOr404(who.companyId, q.id);
  }

  @Post('cancelSale')
  @HttpCode(200)
  @Positions('manager')
  cancel(@CurrentWho() who: Who, @Body() dto: CancelSaleDto): Promise<CancelSaleReply> {
    return this.cancels.cancel(who, dto.saleId, dto.reason.trim());
  }
}
