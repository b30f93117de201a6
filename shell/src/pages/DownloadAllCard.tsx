import { useState } from 'react';
import { translateServerMessage, useTranslation } from '@bahi/i18n';
import { Button, Card, fileNameOf, requestBlob, saveFile, useAlert } from '@bahi/ui-kit';

/**
 * Setting > "Download all data" (managers): one zip of the company's lists as XLSX files, which
 * the gateway assembles from each service's own export (GET /api/export/all).
 */
export function DownloadAllCard() {
  const { t } = useTranslation('shell');
  const alert = useAlert();
  const [busy, setBusy] = useState(false);

  const download = async () => {
    setBusy(true);
    try {
      const { blob, contentDisposition } = await requestBlob('/export/all');
      saveFile(blob, fileNameOf(contentDisposition, 'bahi-all-data.zip'));
      alert.success(t('downloadAll.done'));
    } catch (err) {
      alert.error(translateServerMessage((err as Error).message));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('downloadAll.title')}>
      <p>{t('downloadAll.note')}</p>
      <Button onClick={download} busy={busy} data-testid="download-all">
        {t('downloadAll.button')}
      </Button>
    </Card>
  );
}
