import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload, RpcException, Transport } from '@nestjs/microservices';
import { DocumentSubjects as D, Subjects } from '@bahi/contracts';
import * as F from './fixtures';
import { interB2b } from './gst-fixtures';
import { CREDIT_NOTES, DEBIT_NOTES } from './note-fixtures';

/** Per-company fixture data; other companies see nothing (null -> 404), as the owners scope by companyId. */
export const state = { statementRows: 40, logo: true, saleLines: 1200, statementMaxRows: undefined as number | undefined, docLanguage: undefined as 'en' | 'hi' | undefined, deletedCompanies: new Set<number>(), publicUrl: null as string | null };

/** How many requests each subject got (the tests prove counts are refused before the owner is asked). */
export const asked: Record<string, number> = {};
const count = (subject: string) => (asked[subject] = (asked[subject] ?? 0) + 1);

const mine = (p: { companyId: number }) => p.companyId === F.COMPANY_ID;

/**
 * Stands in for identity, sales, ledger and inventory on a real NATS transport (a Nest
 * microservice), answering the requests documents makes with fixture data.
 */
@Controller()
class FixtureResponders {
  @MessagePattern(Subjects.identity.sessionRevocations)
  revocations() {
    return { revocations: [] };
  }
  @MessagePattern(Subjects.identity.companyDetails)
  company(@Payload() p: { companyId: number }) {
    // As identity once a platform admin deleted the company.
    if (state.deletedCompanies.has(p.companyId)) throw new RpcException({ status: 404, message: `Company ${p.companyId} not found.` });
    return mine(p) ? { ...F.companyDetails, logo: state.logo ? `/companyLogo/${p.companyId}` : null, ...(state.docLanguage ? { doc_language: state.docLanguage } : {}), public_url: state.publicUrl } : { ...F.companyDetails, id: p.companyId, name: 'Other Co', upiId: null };
  }
  @MessagePattern(D.saleDocument)
  sale(@Payload() p: { companyId: number; saleId: number }) {
    count(D.saleDocument);
    if (!mine(p)) return null;
    return p.saleId === 7 ? F.sale : p.saleId === 8 ? F.walkInSale : p.saleId === 11 ? F.upiSale : p.saleId === 9 ? F.longSale(state.saleLines) : p.saleId === 20 ? interB2b : null;
  }
  @MessagePattern(D.estimateDocument)
  estimate(@Payload() p: { companyId: number; estimateId: number }) {
    return mine(p) && p.estimateId === 3 ? F.estimate : null;
  }
  @MessagePattern(D.receiptDocument)
  receipt(@Payload() p: { companyId: number; paymentId: number }) {
    return mine(p) && p.paymentId === 41 ? F.receipt : null;
  }
  @MessagePattern(D.customerStatement)
  statement(@Payload() p: { companyId: number; clientId: number; maxRows?: number }) {
    count(D.customerStatement);
    state.statementMaxRows = p.maxRows;
    if (!mine(p) || p.clientId !== 5) return null;
    // As the ledger: past maxRows only the number of entries comes back.
    const n = state.statementRows;
    return p.maxRows !== undefined && n > p.maxRows ? { ...F.statement(0), entries: n } : { ...F.statement(n), entries: n };
  }
  @MessagePattern(D.stockBook)
  stockBook(@Payload() p: { companyId: number; category: number }) {
    count(D.stockBook);
    // As inventory: a category of another company does not exist there.
    if (!mine(p) || p.category !== F.stockBook.category.id) throw new RpcException({ status: 404, message: `Category ${p.category} does not exist.` });
    return F.stockBook;
  }
  @MessagePattern(D.labelDetails)
  label(@Payload() p: { companyId: number; productId: number }) {
    return mine(p) && p.productId < 100 ? F.labelDetails(p.productId) : null;
  }
  @MessagePattern(D.creditNoteDocument)
  creditNote(@Payload() p: { companyId: number; creditNoteId: number }) {
    return mine(p) ? (CREDIT_NOTES[p.creditNoteId] ?? null) : null;
  }
  @MessagePattern(D.debitNoteDocument)
  debitNote(@Payload() p: { companyId: number; debitNoteId: number }) {
    return mine(p) ? (DEBIT_NOTES[p.debitNoteId] ?? null) : null;
  }
  @MessagePattern(D.purchaseLabels)
  purchase(@Payload() p: { companyId: number; purchaseId: number }) {
    count(D.purchaseLabels);
    if (!mine(p)) return null;
    return p.purchaseId === 9 ? F.purchaseLabels : p.purchaseId === 12 ? F.purchaseWithSeven : p.purchaseId === 13 ? F.hugePurchase : null;
  }
}

@Module({ controllers: [FixtureResponders] })
class RespondersModule {}

export async function startResponders(natsUrl: string): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice(RespondersModule, { transport: Transport.NATS, options: { servers: [natsUrl] }, logger: false });
  await app.listen();
  return app;
}
