import type { ReturnableLine, SaleReturnStatus } from '@bahi/contracts';
import { money, sub } from '@bahi/service-kit';
import { num } from '../common/totals';
import type { ReturnableSale } from './schema';

/** Per bill line, packs sold, returned by complete credit notes and still returnable (0 on a cancelled bill). */
export function returnableLines(s: ReturnableSale): ReturnableLine[] {
  const returned = new Map((s.returned ?? []).map((r) => [r.sl_no, r.quantity]));
  return s.lines.map((l) => {
    const r = money(returned.get(l.sl_no) ?? '0');
    return { sl_no: l.sl_no, sold: num(l.quantity), returned: num(r), returnable: s.cancelled ? 0 : num(sub(l.quantity, r)) };
  });
}

/** '' | 'Partly returned' | 'Returned' | 'Cancelled', for the list and the bill. */
export function returnStatus(s: ReturnableSale): SaleReturnStatus {
  if (s.cancelled) return 'Cancelled';
  if (!(s.creditNotes ?? []).length) return '';
  return returnableLines(s).every((l) => l.returnable === 0) ? 'Returned' : 'Partly returned';
}
