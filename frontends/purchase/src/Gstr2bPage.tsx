import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { fillTemplate, GSTR2B_MISSING_TEMPLATES, type Distributor, type Gstr2bBookBill, type Gstr2bPortalInvoice, type Gstr2bReply } from '@bahi/contracts';
import { useTranslation } from '@bahi/i18n';
import { api, Button, Card, errorMessage, Field, formatINR, Spinner, useAlert, useUser } from '@bahi/ui-kit';

const lastMonth = () => {
  const d = new Date();
  d.setDate(1);
  d.setMonth(d.getMonth() - 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
};
const thisMonth = () => new Date().toISOString().slice(0, 7);

function BillCells({ b }: { b: Gstr2bBookBill | Gstr2bPortalInvoice }) {
  return (
    <>
      <td>{b.supplier}</td>
      <td className="pu-mono">{b.gstin}</td>
      <td>{b.bill_no}</td>
      <td>{b.bill_date}</td>
      <td className="pu-num">{formatINR(b.taxable)}</td>
      <td className="pu-num">{formatINR(b.tax)}</td>
    </>
  );
}

/** /purchaseList/gstr2b: the month's GSTR-2B from the portal against the purchase book (inventory matches; this only shows). */
export function Gstr2bPage() {
  const { t, i18n } = useTranslation('purchase');
  const navigate = useNavigate();
  const alert = useAlert();
  const user = useUser();
  const [period, setPeriod] = useState(lastMonth() < thisMonth() ? thisMonth() : lastMonth());
  const [data, setData] = useState<Gstr2bReply | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    setData(null);
    try {
      setData(await api.get<Gstr2bReply>('/gst/gstr2b', { query: { period } }));
    } catch (e) {
      alert.error(errorMessage(e));
    }
  }, [period, alert]);
  useEffect(() => void load(), [load]);

  const upload = async (file: File) => {
    setBusy(true);
    try {
      let body: unknown;
      try {
        body = JSON.parse(await file.text());
      } catch {
        throw new Error(t('gstr2b.notJson'));
      }
      setData(await api.post<Gstr2bReply>('/gst/gstr2b', body, { query: { period } }));
      alert.success(t('gstr2b.uploaded'));
    } catch (e) {
      alert.error(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const whatsapp = async (b: Gstr2bBookBill) => {
    try {
      const d = (await api.get<{ data: Distributor }>('/getDistributorsDetails', { query: { id: b.distributorId } })).data;
      const mobile = d.officers?.find((o) => o.mobile)?.mobile ?? '';
      const lang = i18n.language === 'hi' ? 'hi' : 'en';
      const message = fillTemplate(GSTR2B_MISSING_TEMPLATES[lang], {
        name: d.name, company: user?.companyName ?? '', bill_no: b.bill_no, bill_date: b.bill_date, tax: formatINR(b.tax), period,
      });
      window.open(`https://wa.me/${mobile ? `91${mobile}` : ''}?text=${encodeURIComponent(message)}`, '_blank', 'noopener');
    } catch (e) {
      alert.error(errorMessage(e));
    }
  };

  const head = (
    <tr>
      <th>{t('gstr2b.supplier')}</th>
      <th>GSTIN</th>
      <th>{t('gstr2b.billNo')}</th>
      <th>{t('gstr2b.billDate')}</th>
      <th className="pu-num">{t('gstr2b.taxable')}</th>
      <th className="pu-num">{t('gstr2b.tax')}</th>
    </tr>
  );

  return (
    <>
      <div className="bk-page-title">
        <h1>{t('gstr2b.title')}</h1>
        <div className="pu-title-actions">
          <Button variant="secondary" onClick={() => navigate('/purchaseList')}>
            {t('common.purchaseAccount')}
          </Button>
        </div>
      </div>
      <Card>
        <div className="pu-2b-bar">
          <Field label={t('gstr2b.period')} type="month" value={period} onChange={(e) => e.target.value && setPeriod(e.target.value)} data-testid="gstr2b-period" />
          <label className="bk-btn bk-btn--primary pu-2b-upload">
            {busy ? <Spinner inline /> : t('gstr2b.upload')}
            <input type="file" accept=".json,application/json" hidden data-testid="gstr2b-file" onChange={(e) => { const f = e.target.files?.[0]; e.target.value = ''; if (f) void upload(f); }} />
          </label>
        </div>
        <p className="pu-2b-hint">{data && !data.uploaded ? t('gstr2b.notUploaded') : t('gstr2b.hint')}</p>
      </Card>
      {!data ? (
        <Spinner />
      ) : (
        <>
          <Card title={`${t('gstr2b.matched')} (${data.matched.length})`}>
            <table className="bk-table" data-testid="gstr2b-matched">
              <thead>{head}</thead>
              <tbody>
                {data.matched.map((m) => (
                  <tr key={m.books.purchaseId}>
                    <BillCells b={m.books} />
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
          <Card title={`${t('gstr2b.differences')} (${data.differences.length})`}>
            <table className="bk-table" data-testid="gstr2b-differences">
              <thead>
                <tr>
                  <th>{t('gstr2b.supplier')}</th>
                  <th>{t('gstr2b.billNo')}</th>
                  <th>{t('gstr2b.field')}</th>
                  <th className="pu-num">{t('gstr2b.books')}</th>
                  <th className="pu-num">{t('gstr2b.portal')}</th>
                </tr>
              </thead>
              <tbody>
                {data.differences.flatMap((x) =>
                  x.fields.map((f) => (
                    <tr key={`${x.books.purchaseId}-${f.field}`}>
                      <td>{x.books.supplier}</td>
                      <td>{x.books.bill_no}</td>
                      <td>{t(`gstr2b.fields.${f.field}`)}</td>
                      <td className="pu-num">{f.field === 'bill_date' ? f.books : formatINR(f.books)}</td>
                      <td className="pu-num">{f.field === 'bill_date' ? f.portal : formatINR(f.portal)}</td>
                    </tr>
                  )),
                )}
              </tbody>
            </table>
          </Card>
          <Card title={`${t('gstr2b.missingInBooks')} (${data.missing_in_books.length})`}>
            <table className="bk-table" data-testid="gstr2b-missing-books">
              <thead>{head}</thead>
              <tbody>
                {data.missing_in_books.map((p) => (
                  <tr key={`${p.gstin}-${p.bill_no}`}>
                    <BillCells b={p} />
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
          <Card title={`${t('gstr2b.missingIn2b')} (${data.missing_in_2b.length})`}>
            <table className="bk-table" data-testid="gstr2b-missing-2b">
              <thead>
                <tr>
                  {head.props.children}
                  <th />
                </tr>
              </thead>
              <tbody>
                {data.missing_in_2b.map((b) => (
                  <tr key={b.purchaseId}>
                    <BillCells b={b} />
                    <td>
                      <Button variant="secondary" onClick={() => void whatsapp(b)} data-testid={`gstr2b-wa-${b.purchaseId}`}>
                        {t('gstr2b.whatsapp')}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        </>
      )}
    </>
  );
}
