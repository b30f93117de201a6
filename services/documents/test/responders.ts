import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload, Transport } from '@nestjs/microservices';
import { DocumentSubjects as D, Subjects } from '@bahi/contracts';
import * as F from './fixtures';

/** Per-company fixture data; other companies see nothing (null -> 404), as the owners scope by companyId. */
export const state = { statementRows: 40, logo: true };

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
    return mine(p) ? { ...F.companyDetails, logo: state.logo ? `/companyLogo/${p.companyId}` : null } : { ...F.companyDetails, id: p.companyId, name: 'Other Co', upiId: null };
  }
  @MessagePattern(D.saleDocument)
  sale(@Payload() p: { companyId: number; saleId: number }) {
    if (!mine(p)) return null;
    return p.saleId === 7 ? F.sale : p.saleId === 8 ? F.walkInSale : null;
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
  statement(@Payload() p: { companyId: number; clientId: number }) {
    return mine(p) && p.clientId === 5 ? F.statement(state.statementRows) : null;
  }
  @MessagePattern(D.stockBook)
  stockBook(@Payload() p: { companyId: number }) {
    return mine(p) ? F.stockBook : { ...F.stockBook, list: [] };
  }
  @MessagePattern(D.labelDetails)
  label(@Payload() p: { companyId: number; productId: number }) {
    return mine(p) && p.productId < 100 ? F.labelDetails(p.productId) : null;
  }
  @MessagePattern(D.purchaseLabels)
  purchase(@Payload() p: { companyId: number; purchaseId: number }) {
    return mine(p) && p.purchaseId === 9 ? F.purchaseLabels : null;
  }
}

@Module({ controllers: [FixtureResponders] })
class RespondersModule {}

export async function startResponders(natsUrl: string): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice(RespondersModule, { transport: Transport.NATS, options: { servers: [natsUrl] }, logger: false });
  await app.listen();
  return app;
}
