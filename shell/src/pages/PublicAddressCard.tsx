import { useEffect, useState, type FormEvent } from 'react';
import { translateServerMessage, useTranslation } from '@bahi/i18n';
import { ApiError, Button, Card, Field, FormActions, api, isAdmin, useAlert, useUser } from '@bahi/ui-kit';
import type { PublicAddressReply } from '@bahi/contracts';

/**
 * Setting > Public address (issue 30): the address share links are built on. The platform admin
 * sets it (it overrides BAHI_PUBLIC_URL); managers see it read-only. The server's 400 sentence
 * shows beside the field.
 */
export function PublicAddressCard() {
  const { t } = useTranslation('shell');
  const alert = useAlert();
  const user = useUser();
  const admin = isAdmin(user);
  const [reply, setReply] = useState<PublicAddressReply | null>(null);
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const show = (r: PublicAddressReply) => {
    setReply(r);
    setTyped(r.public_url ?? '');
  };
  useEffect(() => {
    api.get<PublicAddressReply>('/settings/public-address').then(show, () => setReply(null));
  }, []);
  if (!reply) return null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem('');
    try {
      show(await api.put<PublicAddressReply>('/settings/public-address', { public_url: typed }));
      alert.success(t('publicAddress.saved'));
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setProblem(translateServerMessage(err.message));
      else alert.error(err instanceof ApiError ? translateServerMessage(err.message) : String(err));
    } finally {
      setBusy(false);
    }
  };
  const status = (
    <>
      <p data-testid="public-address-effective">
        {reply.effective ? t('publicAddress.effective', { url: reply.effective }) : t('publicAddress.none')}
      </p>
      {reply.env_url && <p className="sh-gst__note">{t('publicAddress.env', { url: reply.env_url })}</p>}
      {(reply.local_only || !reply.effective) && (
        <p className="sh-field-error" role="alert" data-testid="public-address-warning">
          {t('publicAddress.localOnly')}
        </p>
      )}
    </>
  );
  return (
    <Card title={t('publicAddress.title')}>
      <div data-testid="public-address">
        <p className="sh-gst__note">{t('publicAddress.note')}</p>
        {status}
        {admin ? (
          <form onSubmit={(e) => void submit(e)}>
            <Field
              label={t('publicAddress.label')}
              name="public_url"
              value={typed}
              placeholder="https://shop.example.in"
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => setTyped(e.target.value)}
              className={problem ? 'sh-field--invalid' : ''}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? 'public-address-error' : undefined}
              hint={
                problem ? (
                  <span id="public-address-error" className="sh-field-error" data-testid="public-address-error">
                    {problem}
                  </span>
                ) : (
                  t('publicAddress.hint')
                )
              }
            />
            <FormActions>
              <Button type="submit" busy={busy} data-testid="public-address-save">
                {t('publicAddress.save')}
              </Button>
            </FormActions>
          </form>
        ) : (
          <p className="sh-gst__note" data-testid="public-address-readonly">
            {t('publicAddress.adminSets')}
          </p>
        )}
      </div>
    </Card>
  );
}
