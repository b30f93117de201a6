import { StatCards, formatINR } from '@bahi/ui-kit';

/** Total due and due date of the chosen party (due shown rounded, as the spec says). */
export function DueSummary({ due, dueDate, loading }: { due: number | null; dueDate: string | null; loading?: boolean }) {
  return (
    <StatCards
      className="pm-due"
      testId="due-summary"
      stats={[
        { label: 'Total Due', value: loading ? '…' : due === null ? '—' : formatINR(due), due: !!due && due > 0, testId: 'total-due' },
        { label: 'Due Date', value: loading ? '…' : (dueDate ?? '—'), testId: 'due-date' },
      ]}
    />
  );
}
