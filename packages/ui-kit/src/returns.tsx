// Returns: the dialog that sends goods back on a bill (credit note) or a purchase (debit note),
// the badge of a bill's return state and the link to a note's PDF. Both remotes use these.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ReturnLineInput } from '@bahi/contracts';
import { useTranslation } from '@bahi/i18n';
import { ApiError, errorMessage } from './api';
import { Button, Field, TextAreaField } from './controls';
import { Modal } from './Modal';
import { openDocument } from './documents';
import { formatINR } from './format';
import { newIdempotencyKey } from './idempotency';
import { useAlert } from './alert';

export type NoteKind = 'credit-note' | 'debit-note';

/** Where the documents service serves a note's PDF. */
export const notePdf = (kind: NoteKind, id: number | string) => `/documents/${kind}/${id}`;

/** A note's number that opens its PDF in a new tab (ledger rows, bill and purchase views, lists). */
export function NotePdfLink({ kind, id, children, testId }: { kind: NoteKind; id: number | string; children: ReactNode; testId?: string }) {
  const { t } = useTranslation('ui');
  const alert = useAlert();
  return (
    <button
      type="button"
      className="bk-linkbtn"
      data-testid={testId}
      onClick={(e) => {
        // Inside a clickable table row the row must not open as well.
        e.stopPropagation();
        openDocument(notePdf(kind, id), { newTab: true }).catch(() => alert.error(t('returns.noteUnavailable')));
      }}
    >
      {children}
    </button>
  );
}

/** A bill's return state ('' shows nothing). */
export function ReturnStatusBadge({ status, testId }: { status: string | null | undefined; testId?: string }) {
  const { t } = useTranslation('ui');
  if (!status) return null;
  const tone = status === 'Cancelled' ? ' bk-badge--danger' : status === 'Returned' ? ' bk-badge--warning' : ' bk-badge--info';
  // The server's states (SaleReturnStatus) in the screen's language; anything newer as sent.
  const text =
    status === 'Cancelled'
      ? t('returns.status.cancelled')
      : status === 'Returned'
        ? t('returns.status.returned')
        : status === 'Partly returned'
          ? t('returns.status.partly')
          : status;
  return (
    <span className={`bk-badge${tone}`} data-testid={testId} data-status={status}>
      {text}
    </span>
  );
}

/** One line that can go back. */
export interface ReturnDialogLine {
  sl_no: number;
  name: string;
  /** How a pack reads: "2 × 6 pcs". */
  packLabel?: string;
  sold: number;
  returned: number;
  returnable: number;
}

/** What the server answered for the note. */
export interface ReturnDone {
  id: number;
  no: string;
  amount: number;
  refund: number;
  warnings: string[];
}

export interface ReturnRequestBody {
  lines: ReturnLineInput[];
  refund: string;
  reason?: string;
  idempotencyKey: string;
}

export interface ReturnDialogProps {
  open: boolean;
  onClose(): void;
  title: string;
  kind: NoteKind;
  /** "Credit note" / "Debit note". */
  noteLabel: string;
  /** "Refund in cash" / "Refund from the distributor". */
  refundLabel: string;
  lines: ReturnDialogLine[];
  /** The note's value for these packs per line, to the paisa (the server's rule, for display); unused when `preview` is given. */
  valueOf?(quantities: Map<number, number>): number;
  /**
   * The server's own figure for these packs (GET /previewReturn: the booking's rule, decimal
   * strings). When given, the dialog shows it instead of `valueOf` and confirms only once it came.
   */
  preview?(quantities: Map<number, number>): Promise<{ value: string; refund_max: string }>;
  /** The refund the box starts at for a value (the walk-in takes it all back in cash). */
  defaultRefund(value: number): number;
  submit(body: ReturnRequestBody): Promise<ReturnDone>;
  /** After a note was made (the page reloads its figures). */
  onDone(done: ReturnDone): void;
  testId?: string;
}

const QTY = /^(\d+(\.\d*)?|\.\d+)$/;
const fmtQty = (n: number) => n.toLocaleString('en-IN', { maximumFractionDigits: 3 });
const paise = (n: number) => Math.round(n * 100) / 100;

/**
 * Pick lines and packs (0 .. returnable), see the note's value, set the refund and a reason,
 * confirm. One idempotency key per opened dialog: a double click or a retry after a lost answer
 * makes one note; a refusal (4xx, nothing changed) takes a fresh key for the corrected request.
 */
export function ReturnDialog(props: ReturnDialogProps) {
  const { open, onClose, title, kind, noteLabel, refundLabel, lines, valueOf, defaultRefund, submit, onDone, testId = 'return-dialog' } = props;
  const { t } = useTranslation('ui');
  const alert = useAlert();
  const [qty, setQty] = useState<Record<number, string>>({});
  const [refund, setRefund] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<ReturnDone | null>(null);
  const key = useRef('');

  useEffect(() => {
    if (!open) return;
    key.current = newIdempotencyKey();
    setQty({});
    setRefund(null);
    setReason('');
    setError(null);
    setDone(null);
  }, [open]);

  const lineErrors = useMemo(() => {
    const errs = new Map<number, string>();
    for (const l of lines) {
      const typed = (qty[l.sl_no] ?? '').trim();
      if (!typed) continue;
      if (!QTY.test(typed)) errs.set(l.sl_no, t('returns.enterNumber'));
      else if (Number(typed) > l.returnable) errs.set(l.sl_no, t('returns.atMost', { max: fmtQty(l.returnable) }));
    }
    return errs;
  }, [qty, lines, t]);

  const picked = useMemo(() => {
    const m = new Map<number, number>();
    for (const l of lines) {
      const typed = (qty[l.sl_no] ?? '').trim();
      if (typed && QTY.test(typed) && Number(typed) > 0 && !lineErrors.has(l.sl_no)) m.set(l.sl_no, Number(typed));
    }
    return m;
  }, [qty, lines, lineErrors]);

  // The server's preview of the picked packs (debounced; a stale answer is dropped).
  const pickKey = [...picked].map(([sl, q]) => `${sl}:${q}`).join(',');
  const [served, setServed] = useState<{ for: string; value: string | null; error?: string } | null>(null);
  useEffect(() => {
    if (!props.preview || !pickKey) return setServed(null);
    let live = true;
    const timer = setTimeout(() => {
      props.preview!(picked).then(
        (r) => live && setServed({ for: pickKey, value: r.refund_max }),
        (err: unknown) => live && setServed({ for: pickKey, value: null, error: errorMessage(err) }),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- pickKey stands for picked
  }, [pickKey, props.preview]);
  const servedValue = props.preview ? (served && served.for === pickKey ? served.value : null) : null;
  const value = props.preview ? Number(servedValue ?? 0) : picked.size && valueOf ? paise(valueOf(picked)) : 0;
  // With the server's preview the default refund is its string as is (walk-in) or 0.
  const refundText = refund ?? (props.preview ? (defaultRefund(value) > 0 && servedValue ? servedValue.replace(/\.?0+$/, '') : '0') : String(paise(defaultRefund(value))));
  const refundNum = Number(refundText);
  const refundError =
    refundText.trim() === '' || !QTY.test(refundText.trim())
      ? t('returns.enterRefund')
      : refundNum > value + 1e-9
        ? t('returns.atMost', { max: formatINR(value) })
        : null;
  const canConfirm = picked.size > 0 && lineErrors.size === 0 && !refundError && !pending && (!props.preview || servedValue !== null);

  const confirm = async () => {
    if (!canConfirm) return;
    setPending(true);
    setError(null);
    try {
      const r = await submit({
        lines: [...picked].map(([sl_no, quantity]) => ({ sl_no, quantity: String(quantity) })),
        refund: refundText.trim(),
        reason: reason.trim() || undefined,
        idempotencyKey: key.current,
      });
      setDone(r);
      onDone(r);
      if (r.warnings?.length) alert.show(r.warnings.join(' '), 'warning');
    } catch (err) {
      // A refusal changed nothing: the corrected request is a new one.
      if (err instanceof ApiError && err.status >= 400 && err.status < 500) key.current = newIdempotencyKey();
      setError(errorMessage(err));
    } finally {
      setPending(false);
    }
  };

  const footer = done ? (
    <>
      <NotePdfLink kind={kind} id={done.id} testId="return-note-pdf">
        {t('returns.openPdf', { note: noteLabel.toLowerCase() })}
      </NotePdfLink>
      <Button onClick={onClose} data-testid="return-close">
        {t('common.close')}
      </Button>
    </>
  ) : (
    <>
      <Button variant="ghost" onClick={onClose} disabled={pending}>
        {t('common.cancel')}
      </Button>
      <Button onClick={() => void confirm()} disabled={!canConfirm} busy={pending} data-testid="return-confirm">
        {t('returns.confirm')}
      </Button>
    </>
  );

  return (
    <Modal open={open} title={title} onClose={pending ? () => {} : onClose} width={760} footer={footer}>
      <div data-testid={testId}>
        {done ? (
          <div className="bk-return__done" data-testid="return-done">
            <p>
              {noteLabel} <b data-testid="return-note-no">{done.no}</b> {t('returns.madeFor')}{' '}
              <b data-testid="return-note-amount">{formatINR(done.amount)}</b>
              {done.refund > 0 && (
                <>
                  {' '}
                  · {t('returns.refund')} <b>{formatINR(done.refund)}</b>
                </>
              )}
              .
            </p>
          </div>
        ) : (
          <>
            <div className="bk-table-wrap bk-return__lines">
              <table className="bk-table bk-return__table">
                <thead>
                  <tr>
                    <th>#</th>
                    <th>{t('returns.product')}</th>
                    <th style={{ textAlign: 'right' }}>{t('returns.sold')}</th>
                    <th style={{ textAlign: 'right' }}>{t('returns.returned')}</th>
                    <th style={{ textAlign: 'right' }}>{t('returns.returnNow')}</th>
                  </tr>
                </thead>
                <tbody>
                  {lines.map((l, i) => {
                    const err = lineErrors.get(l.sl_no);
                    return (
                      <tr key={l.sl_no} data-testid={`return-line-${l.sl_no}`}>
                        <td>{i + 1}</td>
                        <td>
                          {l.name}
                          {l.packLabel && <div className="bk-muted bk-return__pack">{l.packLabel}</div>}
                        </td>
                        <td style={{ textAlign: 'right' }}>{fmtQty(l.sold)}</td>
                        <td style={{ textAlign: 'right' }}>{l.returned ? fmtQty(l.returned) : '—'}</td>
                        <td style={{ textAlign: 'right' }}>
                          <input
                            className={`bk-return__qty${err ? ' bk-return__qty--bad' : ''}`}
                            inputMode="decimal"
                            aria-label={t('returns.quantityOf', { name: l.name })}
                            placeholder="0"
                            disabled={l.returnable <= 0 || pending}
                            value={qty[l.sl_no] ?? ''}
                            onChange={(e) => setQty({ ...qty, [l.sl_no]: e.target.value })}
                            data-testid={`return-qty-${l.sl_no}`}
                          />
                          <div className={err ? 'bk-return__err' : 'bk-muted bk-return__max'}>{err ?? t('returns.max', { max: fmtQty(l.returnable) })}</div>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <div className="bk-return__foot">
              <div className="bk-return__value">
                <span className="bk-muted">{t('returns.value', { note: noteLabel })}</span>
                <b data-testid="return-value">{props.preview ? (!picked.size ? formatINR(0) : servedValue !== null ? formatINR(servedValue) : '…') : formatINR(value)}</b>
                {served?.error && served.for === pickKey ? (
                  <span className="bk-field__error" role="alert">
                    {served.error}
                  </span>
                ) : null}
              </div>
              <Field
                label={refundLabel}
                inputMode="decimal"
                value={refundText}
                disabled={pending}
                onChange={(e) => setRefund(e.target.value)}
                hint={refundError ?? t('returns.refundRange', { max: formatINR(value) })}
                data-testid="return-refund"
              />
              <TextAreaField
                label={t('returns.reason')}
                rows={2}
                maxLength={200}
                placeholder={t('returns.reasonPlaceholder')}
                value={reason}
                disabled={pending}
                onChange={(e) => setReason(e.target.value)}
                data-testid="return-reason"
              />
            </div>
            {error && (
              <p className="bk-return__error" role="alert" data-testid="return-error">
                {error}
              </p>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
