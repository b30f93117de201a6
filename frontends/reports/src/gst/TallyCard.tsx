import { useState } from 'react';
import { translateServerMessage, useTranslation } from '@bahi/i18n';
import { ApiError, Button, Card, fileNameOf, requestBlob, saveFile, todayISO, useAlert } from '@bahi/ui-kit';

/**
 * The accountant's Tally file (issue 31): the chosen dates' bills, returns, purchases and payments
 * as TallyPrime's import XML (GET /export/tally). The server checks the dates and says why it refuses.
 */
export function TallyCard() {
  const { t } = useTranslation('reports');
  const alert = useAlert();
  const today = todayISO();
  const [from, setFrom] = useState(`${today.slice(0, 8)}01`);
  const [to, setTo] = useState(today);
  const [busy, setBusy] = useState(false);

  const download = async () => {
    setBusy(true);
    try {
      const { blob, contentDisposition } = await requestBlob('/export/tally', { query: { from, to } });
      saveFile(blob, fileNameOf(contentDisposition, `tally-${from}-to-${to}.xml`));
    } catch (err) {
      alert.error(err instanceof ApiError ? translateServerMessage(err.message) : t('tally.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('tally.title')}>
      <p className="bk-muted">{t('tally.note')}</p>
      <div className="rp-controls" data-testid="tally-export">
        <label className="rp-month">
          <span>{t('tally.from')}</span>
          <input type="date" name="tally-from" value={from} max={today} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label className="rp-month">
          <span>{t('tally.to')}</span>
          <input type="date" name="tally-to" value={to} max={today} onChange={(e) => setTo(e.target.value)} />
        </label>
        <Button variant="secondary" busy={busy} onClick={() => void download()} data-testid="download-tally">
          {t('tally.download')}
        </Button>
      </div>
    </Card>
  );
}
