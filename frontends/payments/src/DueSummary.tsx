import { useTranslation } from '@bahi/i18n';
import { StatCards, formatINR } from '@bahi/ui-kit';

/** Total due and due date of the chosen party (due shown rounded, as the spec says). */
export function DueSummary({ due, dueDate, loading }: { due: number | null; dueDate: string | null; loading?: boolean }) {
  const { t } = useTranslation('payments');
  return (
    <StatCards
      className="pm-due"
      testId="due-summary"
      stats={[
        { label: t('due.total'), value: loading ? '…' : due === null ? '—' : formatINR(due), due: !!due && due > 0, testId: 'total-due' },
        { label: t('due.date'), value: loading ? '…' : (dueDate ?? '—'), testId: 'due-date' },
      ]}
    />
  );
}
