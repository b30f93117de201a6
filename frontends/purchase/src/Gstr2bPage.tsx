import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { fillTemplate, GSTR2B_MISSING_TEMPLATES, type Distributor, type Gstr2bBookBill, type Gstr2bBookNote, type Gstr2bFieldDiff, type Gstr2bPortalInvoice, type Gstr2bPortalNote, type Gstr2bReply, type ShareTemplates } from '@bahi/contracts';
import { useTranslation } from '@bahi/i18n';
import { api, Button, Card, errorMessage, Field, formatINR, Spinner, useAlert, useUser } from '@bahi/ui-kit';

const lastMonth = () => {
  const d = new Date();
  d.setDate(1);
  d.setMonth(d.getMonth() - 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
};
const thisMonth = () => new Date().toISOString().slice(0, 7);

function BillCells({ b, note }: { b: Gstr2bBookBill | Gstr2bPortalInvoice; note?: string }) {
  const { t } = useTranslation('purchase');
  const original = 'original_bill_no' in b ? b.original_bill_no : undefined;
  return (
    <>
      <td>{b.supplier}</td>
      <td className="pu-mono">{b.gstin}</td>
      <td>
        {b.bill_no}
        {original && <div className="pu-2b-amended">{t('gstr2b.amendedFrom', { no: original })}</div>}
        {note && <div className="pu-2b-amended">{note}</div>}
      </td>
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
      const [d, company] = await Promise.all([
        api.get<{ data: Distributor }>('/getDistributorsDetails', { query: { id: b.distributorId } }).then((r) => r.data),
        api.get<{ share_templates?: Partial<ShareTemplates> }>('/getCompanyDetails'),
      ]);
      const mobile = d.officers?.find((o) => o.mobile)?.mobile ?? '';
      const lang = i18n.language === 'hi' ? 'hi' : 'en';
      // The company's own message (Setting), else the shipped one.
      const template = company.share_templates?.gstr2b_missing?.[lang] || GSTR2B_MISSING_TEMPLATES[lang];
      const message = fillTemplate(template, {
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
                    <BillCells b={m.books} note={m.portal.section === 'b2ba' ? t('gstr2b.amendedAs', { no: m.portal.bill_no }) : undefined} />
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
          <NotesCard notes={data.notes} />
        </>
      )}
    </>
  );
}

type NoteRow = { status: 'matched' | 'difference' | 'missingInBooks' | 'missingIn2b'; key: string; doc: Gstr2bBookNote | Gstr2bPortalNote; portal?: Gstr2bPortalNote; fields?: Gstr2bFieldDiff[] };

/** The suppliers' credit and debit notes (cdnr, cdnra) against Bahi's purchase returns, in one table with a status column. */
function NotesCard({ notes }: { notes: Gstr2bReply['notes'] | undefined }) {
  const { t } = useTranslation('purchase');
  if (!notes) return null;
  const rows: NoteRow[] = [
    ...notes.matched.map((m) => ({ status: 'matched' as const, key: `m-${m.books.debitNoteId}`, doc: m.books, portal: m.portal })),
    ...notes.differences.map((x) => ({ status: 'difference' as const, key: `d-${x.books.debitNoteId}`, doc: x.books, portal: x.portal, fields: x.fields })),
    ...notes.missing_in_books.map((p) => ({ status: 'missingInBooks' as const, key: `b-${p.gstin}-${p.bill_no}`, doc: p, portal: p })),
    ...notes.missing_in_2b.map((b) => ({ status: 'missingIn2b' as const, key: `2-${b.debitNoteId}`, doc: b })),
  ];
  const kind = (r: NoteRow) => {
    if (r.portal && r.status === 'missingInBooks') return t(r.portal.note_type === 'D' ? 'gstr2b.notes.supplierDebit' : 'gstr2b.notes.supplierCredit');
    const b = r.doc as Gstr2bBookNote;
    return t('gstr2b.notes.ourDebit', { bill: b.purchase_bill_no });
  };
  return (
    <Card title={`${t('gstr2b.notes.title')} (${rows.length})`}>
      <p className="pu-2b-hint">{t('gstr2b.notes.hint')}</p>
      <div className="bk-table-wrap">
        <table className="bk-table" data-testid="gstr2b-notes">
          <thead>
            <tr>
              <th>{t('gstr2b.notes.status')}</th>
              <th>{t('gstr2b.supplier')}</th>
              <th>{t('gstr2b.notes.noteNo')}</th>
              <th>{t('gstr2b.notes.kind')}</th>
              <th>{t('gstr2b.billDate')}</th>
              <th className="pu-num">{t('gstr2b.taxable')}</th>
              <th className="pu-num">{t('gstr2b.tax')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} data-status={r.status}>
                <td>
                  {t(`gstr2b.notes.${r.status}`)}
                  {r.fields?.map((f) => (
                    <div key={f.field} className="pu-2b-amended">
                      {t(`gstr2b.fields.${f.field}`)}: {f.field === 'bill_date' ? f.books : formatINR(f.books)} / {f.field === 'bill_date' ? f.portal : formatINR(f.portal)}
                    </div>
                  ))}
                </td>
                <td>{r.doc.supplier}</td>
                <td>
                  {r.doc.bill_no}
                  {r.portal && r.portal.bill_no !== r.doc.bill_no && <div className="pu-2b-amended">{t('gstr2b.notes.reportedAs', { no: r.portal.bill_no })}</div>}
                  {r.portal?.original_bill_no && <div className="pu-2b-amended">{t('gstr2b.amendedFrom', { no: r.portal.original_bill_no })}</div>}
                </td>
                <td>{kind(r)}</td>
                <td>{r.doc.bill_date}</td>
                <td className="pu-num">{formatINR(r.doc.taxable)}</td>
                <td className="pu-num">{formatINR(r.doc.tax)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
