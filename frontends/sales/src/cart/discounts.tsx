// The counter's discount guards (issue 28): a discount refused as typed with the sentence beside
// its field, and a manager's approval by PIN when a staff member's discount is above the limit.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { translateServerMessage, useTranslation } from '@bahi/i18n';
import { api, ApiError, Button, Modal } from '@bahi/ui-kit';
import type { ApproversReply, CartUpdateReply, NeedsApprovalBody } from '@bahi/contracts';
import './discounts.css';

/** A discount the server (or the screen, as typed) refused; its message is the sentence to show beside the field. */
export class DiscountRefused extends Error {}

/** a > b for two non-negative decimals as typed ("2850", "2850.5"): compared as digits, never as floats. */
export function decimalAbove(a: string, b: string): boolean {
  const parse = (s: string) => {
    const [i = '0', f = ''] = s.trim().split('.');
    return { i: i.replace(/^0+(?=\d)/, '') || '0', f };
  };
  const x = parse(a);
  const y = parse(b);
  const places = Math.max(x.f.length, y.f.length);
  const big = (v: { i: string; f: string }) => BigInt(v.i + v.f.padEnd(places, '0'));
  return big(x) > big(y);
}

type Approval = { approver_id: number; approval_pin: string };
interface Asking {
  msg: string;
  error: string;
  resolve(a: Approval | null): void;
}

/**
 * Sends a discount call; a 403 needsApproval opens the approval dialog and repeats the call with
 * the manager's id and PIN (a wrong PIN or a locked one is shown in the dialog, which stays open).
 * Any other refusal, or the dialog cancelled, throws DiscountRefused with the sentence.
 */
export function useDiscountCall() {
  const [asking, setAsking] = useState<Asking | null>(null);
  const send = async (path: string, body: object): Promise<CartUpdateReply> => {
    let approval: Approval | null = null;
    let msg = '';
    for (;;) {
      try {
        // 403 here is an answer (approval needed, wrong PIN), not a dead session.
        const r = await api.post<CartUpdateReply>(path, { ...body, ...(approval ?? {}) }, { authRedirect: false });
        setAsking(null);
        return r;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        const data = err.body as Partial<NeedsApprovalBody> | undefined;
        const approvalAnswer = err.status === 429 || (err.status === 403 && (approval !== null || data?.needsApproval === true));
        if (!approvalAnswer) {
          setAsking(null);
          throw new DiscountRefused(translateServerMessage(err.message));
        }
        if (data?.needsApproval) msg = data.msg ?? err.message;
        approval = await new Promise<Approval | null>((resolve) => setAsking({ msg, error: approval ? err.message : '', resolve }));
        if (!approval) {
          setAsking(null);
          throw new DiscountRefused(translateServerMessage(msg));
        }
      }
    }
  };
  const dialog = asking ? <ApprovalDialog key="approval" asking={asking} /> : null;
  return { send, dialog };
}

/** The company's managers; the one approving picks their name and types the PIN (keyboard only: arrows, Tab, digits, Enter, Esc). */
function ApprovalDialog({ asking }: { asking: Asking }) {
  // 'server' too: the server's sentences (why, a wrong PIN) are shown in the screen's language.
  const { t } = useTranslation(['sales', 'server']);
  const [approvers, setApprovers] = useState<ApproversReply['approvers'] | null>(null);
  const [who, setWho] = useState('');
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  const pinRef = useRef<HTMLInputElement>(null);
  const selectRef = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    api
      .get<ApproversReply>('/approvers')
      .then((r) => {
        setApprovers(r.approvers);
        const first = r.approvers.find((a) => a.has_pin);
        if (first) setWho(String(first.id));
      })
      .catch(() => setApprovers([]));
  }, []);
  useEffect(() => {
    if (!approvers) return;
    // One manager with a PIN: straight to the PIN; several: their names first.
    if (approvers.filter((a) => a.has_pin).length === 1) pinRef.current?.focus();
    else selectRef.current?.focus();
  }, [approvers]);
  // A wrong PIN: the box empties and takes the focus again.
  useEffect(() => {
    setBusy(false);
    setPin('');
    if (asking.error) pinRef.current?.focus();
  }, [asking]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!who || !/^\d{4,6}$/.test(pin) || busy) return;
    setBusy(true);
    asking.resolve({ approver_id: Number(who), approval_pin: pin });
  };
  const cancel = () => asking.resolve(null);
  return (
    <Modal open title={t('approval.title')} onClose={cancel} width={420}>
      {/* Keys typed here never reach the counter behind (F9, Enter on a cart line). */}
      <form onSubmit={submit} onKeyDown={(e) => e.key !== 'Escape' && e.stopPropagation()} data-testid="approval-dialog">
        <p className="sl-approval__why">{translateServerMessage(asking.msg)}</p>
        <label className="bk-field">
          <span>{t('approval.manager')}</span>
          <select ref={selectRef} className="bk-input" value={who} onChange={(e) => setWho(e.target.value)} data-testid="approval-manager">
            {(approvers ?? []).map((a) => (
              <option key={a.id} value={a.id} disabled={!a.has_pin}>
                {a.has_pin ? a.name : t('approval.noPin', { name: a.name })}
              </option>
            ))}
          </select>
        </label>
        {approvers && !approvers.some((a) => a.has_pin) && <p className="sl-field-error">{t('approval.none')}</p>}
        <label className="bk-field">
          <span>{t('approval.pin')}</span>
          <input
            ref={pinRef}
            className="bk-input"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={6}
            value={pin}
            onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))}
            data-testid="approval-pin"
          />
        </label>
        {asking.error && (
          <p className="sl-field-error" role="alert" data-testid="approval-error">
            {translateServerMessage(asking.error)}
          </p>
        )}
        <div className="sl-approval__actions">
          <Button type="submit" disabled={busy} data-testid="approval-approve">
            {t('approval.approve')}
          </Button>
          <Button type="button" variant="secondary" onClick={cancel}>
            {t('approval.cancel')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
