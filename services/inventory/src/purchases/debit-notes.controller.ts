import { BadRequestException, Body, Controller, Get, Headers, HttpCode, Post, Query } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, type DebitNoteDetails, type DebitNoteDocumentRequest, type DebitNoteListReply, type PurchaseReturnReply, type ReturnPreviewReply, type TokenClaims } from '@bahi/contracts';
import { CompanyMsg, CurrentUser, Positions, RpcId, Tenant } from '@bahi/service-kit';
import { intParam, pageNo, pages, PAGE_SIZE } from '../common';
import { debitNoteView, DebitNotesService, parseReturn } from './debit-notes.service';

/** Purchase returns and their debit notes. Managers only, as every purchase call. */
@Controller()
@Positions('manager')
export class DebitNotesController {
  constructor(private readonly notes: DebitNotesService) {}

  /** The Idempotency-Key header (or body idempotencyKey) makes a retried return apply once. */
  @Post('purchaseReturn')
  @HttpCode(200)
  purchaseReturn(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Body() body: unknown, @Headers('idempotency-key') key?: string): Promise<PurchaseReturnReply> {
    return this.notes.purchaseReturn({ companyId, userId: user.uid }, parseReturn(body, key));
  }

  /** GET /previewPurchaseReturn?purchaseId=7&lines=3:1,5:2 (sl_no:packs): the return dialog's figure, from the booking's rule. */
  @Get('previewPurchaseReturn')
  previewReturn(@Tenant() companyId: number, @Query('purchaseId') idRaw?: string, @Query('lines') linesRaw?: string): Promise<ReturnPreviewReply> {
    const purchaseId = intParam('purchaseId', idRaw);
    const text = typeof linesRaw === 'string' ? linesRaw : '';
    if (text.length > 4000) throw new BadRequestException('lines is too long.');
    const lines = text
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => {
        const m = /^(\d+):(.+)$/.exec(p);
        if (!m) throw new BadRequestException(`lines: "${p.slice(0, 20)}" must be line:quantity, as 3:1.`);
        return { sl_no: Number(m[1]), quantity: m[2] };
      });
    return this.notes.preview(companyId, purchaseId, lines);
  }

  @Get('getDebitNoteList')
  async list(@Tenant() companyId: number, @Query('pageNo') pageRaw?: string): Promise<DebitNoteListReply> {
    const page = pageNo(pageRaw);
    const filter = { companyId, status: 'complete' as const };
    const [rows, count] = await Promise.all([
      this.notes.model.find(filter).sort({ debitNoteId: -1 }).skip(page * PAGE_SIZE).limit(PAGE_SIZE).lean(),
      this.notes.model.countDocuments(filter),
    ]);
    return {
      list: rows.map((d) => ({ id: d.debitNoteId, debit_note_no: d.debit_note_no, Date: d.date, purchaseId: d.purchaseId, Distributors: d.distributorName, Amount: Number(d.amount), Refund: Number(d.refund) })),
      noOfPages: pages(count),
    };
  }

  @Get('getDebitNoteDetails')
  async details(@Tenant() companyId: number, @Query('id') idRaw?: string): Promise<DebitNoteDetails> {
    return debitNoteView(await this.notes.get(companyId, intParam('id', idRaw)));
  }
}

class DebitNoteDocumentMsg extends CompanyMsg implements DebitNoteDocumentRequest {
  @RpcId() debitNoteId!: number;
}

/** The debit-note PDF's data for documents; null for an unknown or unfinished note. */
@Controller()
export class DebitNoteHandlers {
  constructor(private readonly notes: DebitNotesService) {}

  @MessagePattern(Subjects.documents.debitNoteDocument)
  async document(@Payload() msg: DebitNoteDocumentMsg): Promise<DebitNoteDetails | null> {
    const d = await this.notes.model.findOne({ companyId: msg.companyId, debitNoteId: msg.debitNoteId, status: 'complete' }).lean();
    return d ? debitNoteView(d) : null;
  }
}
