import type { ReportName } from '@bahi/contracts';
import { today } from '@bahi/service-kit';
import { dateParam, oneOf, optionalId, optionalText, pageParam, PAGE_SIZE, rangeParams } from './params';
import type { ReportsService } from './reports.service';

type Q = Record<string, unknown>;

/**
 * One report from its query strings, as GET /reports/{name} and the documents' request
 * (reports.report.rows) both ask it: the same parameters, the same 400s. `rows`: 'page' (100 a page, `page=`), 'all' (exports) or
 * a count from the first row (documents).
 */
export async function runReport(reports: ReportsService, companyId: number, name: ReportName, q: Q, rows: 'page' | 'all' | number) {
  // `pageNo` is the day book's name for `page` (Bahi's list routes say pageNo); either, page first.
  const pageNo = () => (q.page === undefined && name === 'daybook' ? pageParam(q.pageNo, 'pageNo') : pageParam(q.page));
  const paged = rows === 'page' ? { page: pageNo(), pageSize: PAGE_SIZE } : { page: 0, pageSize: rows === 'all' ? null : rows };
  switch (name) {
    case 'daybook':
      return reports.daybook(companyId, dateParam(q.date, 'date', today()), paged);
    case 'sales-register': {
      const { from, to } = rangeParams(q);
      return reports.salesRegister(companyId, from, to, optionalId(q.clientId, 'clientId'), paged);
    }
    case 'purchase-register': {
      const { from, to } = rangeParams(q);
      return reports.purchaseRegister(companyId, from, to, optionalId(q.distributorId, 'distributorId'), paged);
    }
    case 'stock-summary':
      return reports.stockSummary(companyId, optionalText(q.category, 'category'), optionalText(q.brand, 'brand'), paged);
    case 'profit': {
      const { from, to } = rangeParams(q);
      return reports.profit(companyId, from, to, profitBy(q), paged);
    }
    case 'ageing':
      return reports.ageing(companyId, ageingSide(q), today(), paged);
  }
}

export const profitBy = (q: Q) => oneOf(q.by, 'by', ['product', 'category', 'month'] as const, 'product');
export const ageingSide = (q: Q) => oneOf(q.side, 'side', ['receivable', 'payable'] as const, 'receivable');
