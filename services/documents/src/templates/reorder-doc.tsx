import { BadRequestException, NotFoundException } from '@nestjs/common';
import { DocumentSubjects as S, REORDER_MAX_LINES, type ReorderDocument } from '@bahi/contracts';
import { Money } from '@bahi/service-kit';
import { companyFor } from '../documents/company';
import type { DocumentKindDef } from '../documents/kinds';
import { date, qty } from '../render/format';
import { langOf, tOf } from '../i18n';
import { CompanyHeader, Html } from './layout';
import { A4, type CompanyView } from './model';

const REORDER_CSS = `
.meta { display: flex; justify-content: space-between; margin: 3mm 0 2mm; font-size: 10pt; }
td, th { font-size: 9pt; }
tr { break-inside: avoid; }
.order { font-weight: 700; font-size: 10pt; }
.total td { border-top: 0.3mm solid #444; border-bottom: none; font-weight: 700; }
.sign { margin-top: 14mm; display: flex; justify-content: flex-end; }
`;

/** What goes to the distributor: what to send and how much; no costs or stock (the shop's own business). */
export function ReorderTemplate(props: { company: CompanyView; list: ReorderDocument }) {
  const { list } = props;
  const pieces = list.lines.length;
  const t = tOf(props.company);
  return (
    <Html title={`Reorder list ${list.distributorName}`} size={A4} lang={langOf(props.company)} css={REORDER_CSS}>
      <CompanyHeader
        company={props.company}
        right={
          <>
            <h2>{t('reorder.heading')}</h2>
            <div>{date(list.date)}</div>
          </>
        }
      />
      <div className="meta">
        <span>
          {t('reorder.to')} <strong>{list.distributorId ? list.distributorName : t('reorder.anyDistributor')}</strong>
        </span>
        <span>{t('common.products', { count: pieces })}</span>
      </div>
      <table>
        <thead>
          <tr>
            <th>#</th>
            <th>{t('reorder.code')}</th>
            <th>{t('stockbook.product')}</th>
            <th>{t('stockbook.brand')}</th>
            <th className="num">{t('reorder.packOf')}</th>
            <th className="num">{t('reorder.orderQty')}</th>
            <th className="num">{t('reorder.units')}</th>
          </tr>
        </thead>
        <tbody>
          {list.lines.map((l, i) => (
            <tr key={l.product_id}>
              <td>{i + 1}</td>
              <td>{l.product_id}</td>
              <td>{l.product_name}</td>
              <td>{l.brand_name}</td>
              <td className="num">
                {qty(l.per_peice_quantity)} {l.unit}
              </td>
              <td className="num order">{qty(l.suggested_quantity)}</td>
              <td className="num">
                {qty(l.suggested_units)} {l.unit}
              </td>
            </tr>
          ))}
          <tr className="total">
            <td colSpan={5}>{t('reorder.total', { count: pieces })}</td>
            <td className="num">{qty(list.lines.reduce((n, l) => n.plus(l.suggested_quantity), Money.money(0)))}</td>
            <td />
          </tr>
        </tbody>
      </table>
      <div className="sign">{t('common.forCompany', { name: props.company.name })}</div>
    </Html>
  );
}

/** `products=12,13`: the selected lines of the group (all of it when absent). */
function productIds(raw: string | undefined): number[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  const parts = raw.split(',', REORDER_MAX_LINES + 1);
  if (parts.length > REORDER_MAX_LINES) throw new BadRequestException(`products can list at most ${REORDER_MAX_LINES} products.`);
  return parts.map((s) => {
    if (!/^\d{1,9}$/.test(s) || Number(s) <= 0) throw new BadRequestException('products must be product ids separated by commas, like 12,13.');
    return Number(s);
  });
}

/** GET /documents/reorder/{distributorId}[?products=..]: one distributor's group of the reorder list; 0 is "No purchase yet". */
export const reorderKind: DocumentKindDef = {
  kind: 'reorder',
  needsId: true,
  // The reorder list is the manager's (inventory's GET /reorderList).
  positions: ['manager'],
  async prepare(req, src) {
    if (req.id === undefined || !/^\d{1,9}$/.test(req.id)) throw new BadRequestException('The distributor id must be a whole number (0 for products never bought).');
    const distributorId = Number(req.id);
    const ids = productIds(req.query.products);
    const [company, list] = await Promise.all([companyFor(req, src), src.ask(S.reorderDocument, { companyId: req.companyId, distributorId, productIds: ids })]);
    if (!list) throw new NotFoundException(distributorId ? `Nothing to reorder from distributor ${distributorId}.` : 'Nothing to reorder among products never bought.');
    return { element: <ReorderTemplate company={company} list={list} />, size: A4, fileName: `reorder-${distributorId}.pdf` };
  },
};
