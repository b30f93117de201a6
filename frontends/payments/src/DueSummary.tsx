import { formatINR } from '@bahi/ui-kit';

/** Total due and due date of the chosen party (due shown rounded, as the spec says). */
export function DueSummary({ due, dueDate, loading }: { due: number | null; dueDate: string | null; loading?: boolean }) {
  return (
    <div className="pm-due" data-testid="due-summary">
      <div className="pm-stat">
        <span className="pm-stat__label">Total Due</span>
        <span className={`pm-stat__value ${due && due > 0 ? 'pm-stat__value--due' : ''}`} data-testid="total-due">
          {loading ? '…' : due === null ? '—' : formatINR(due)}
        </span>
      </div>
      <div className="pm-stat">
        <span className="pm-stat__label">Due Date</span>
        <span className="pm-stat__value" data-testid="due-date">
          {loading ? '…' : (dueDate ?? '—')}
        </span>
      </div>
    </div>
  );
}
