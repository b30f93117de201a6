import type { ShareLang } from '@bahi/contracts';
import { stripBidi } from '@bahi/service-kit';
import { textFor, type DocT } from '../i18n';
import { rupees, date as ddmmyyyy } from '../render/format';
import type { ShareSummary } from './summary';

/** Text for the page, HTML-escaped; bidi controls kept in names saved before services stripped them are dropped too. */
export function escapeHtml(s: string): string {
  return stripBidi(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Phone first; no script, no external file (the gateway's CSP allows inline styles and data: images). */
const CSS = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans','Noto Sans Devanagari',sans-serif;background:#f3f5f7;color:#1d2430;line-height:1.4}
main{max-width:480px;margin:0 auto;padding:16px}
.card{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.12);padding:18px;margin-bottom:14px}
.company{font-size:1.15rem;font-weight:700;margin:0 0 2px}.muted{color:#5b6574;font-size:.9rem}
h1{font-size:1.05rem;margin:14px 0 4px;font-weight:600}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 12px;margin:12px 0 0}dt{color:#5b6574}dd{margin:0;text-align:right;font-variant-numeric:tabular-nums}
.due{font-size:1.6rem;font-weight:700;text-align:center;margin:6px 0 2px}.due-label{text-align:center;color:#5b6574;font-size:.9rem}
.btn{display:block;text-align:center;text-decoration:none;border-radius:10px;padding:13px;font-weight:600;font-size:1rem;margin-top:10px}
.pay{background:#1a7f37;color:#fff}.pdf{background:#fff;color:#0b57d0;border:1.5px solid #0b57d0}
.qr{display:block;margin:10px auto 4px;width:200px;height:200px;image-rendering:pixelated}
.note{background:#fff4e5;border-radius:8px;padding:8px 10px;margin-top:12px;color:#8a4b00;font-size:.9rem}
.center{text-align:center}footer{text-align:center;color:#8a93a0;font-size:.8rem;margin-top:8px}
`;

function shell(title: string, body: string, lang: ShareLang): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex,nofollow"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style>${CSS}</style></head><body><main>${body}</main></body></html>`;
}

export interface PageCompany {
  name: string;
  add1: string;
  mob1: string;
}

export interface PagePay {
  /** upi://pay?... */
  uri: string;
  /** data:image/png;base64,... */
  qrDataUrl: string;
  amount: string;
}

const TITLE_KEYS: Record<string, string> = {
  Bill: 'bill',
  'Tax invoice': 'taxInvoice',
  'Bill of supply': 'billOfSupply',
  Estimate: 'estimate',
  'Money receipt': 'receipt',
  'Statement of account': 'statement',
  'Credit note': 'creditNote',
};

/** The document's title in the page's language (the summary's title is the English one the message uses). */
export function titleIn(t: DocT, title: string): string {
  const key = TITLE_KEYS[title];
  return key ? t(`share.titles.${key}`) : title;
}

function noteIn(t: DocT, doc: ShareSummary): string | null {
  const n = doc.noteOf;
  if (!n) return doc.note;
  if (n.key === 'cancelled') return t('share.notes.cancelled', { date: ddmmyyyy(n.date), reason: n.reason });
  return n.reason ? t('share.notes.againstReason', { saleId: n.saleId, reason: n.reason }) : t('share.notes.against', { saleId: n.saleId });
}

/** The public page of a live link, in the link's language (figures and dates en-IN in both). */
export function sharePage(p: { company: PageCompany; doc: ShareSummary; pdfHref: string; pay: PagePay | null; expiresAt: Date; lang?: ShareLang }): string {
  const { company, doc } = p;
  const lang = p.lang ?? 'en';
  const t = textFor(lang);
  const title = titleIn(t, doc.title);
  const note = noteIn(t, doc);
  const rows: [string, string][] = [
    [doc.kind === 'statement' ? t('share.page.customerNo') : t('share.page.number'), doc.number],
    [t('share.page.date'), ddmmyyyy(doc.date)],
    ...(doc.customerName ? ([[t('share.page.customer'), doc.customerName]] as [string, string][]) : []),
    [doc.kind === 'statement' ? t('share.page.totalDue') : doc.kind === 'receipt' ? t('share.page.amountReceived') : t('share.page.amount'), rupees(doc.amount)],
    ...(doc.due !== null && doc.kind !== 'statement' ? ([[t('share.page.amountDue'), rupees(doc.due)]] as [string, string][]) : []),
    ...(doc.dueDate && doc.due !== null && Number(doc.due) > 0 ? ([[t('share.page.dueDate'), ddmmyyyy(doc.dueDate)]] as [string, string][]) : []),
  ];
  const headline =
    doc.due !== null
      ? `<div class="due" data-testid="due">${escapeHtml(rupees(doc.due))}</div><div class="due-label">${escapeHtml(t('share.page.dueLabel'))}</div>`
      : `<div class="due" data-testid="due">${escapeHtml(rupees(doc.amount))}</div><div class="due-label">${escapeHtml(doc.kind === 'credit-note' ? t('share.page.credited') : t('share.page.total'))}</div>`;
  const pay = p.pay
    ? `<section class="card center"><img class="qr" alt="${escapeHtml(t('share.page.qrAlt', { amount: rupees(p.pay.amount) }))}" src="${p.pay.qrDataUrl}"><div class="muted">${escapeHtml(t('share.page.scan'))}</div><a class="btn pay" href="${escapeHtml(p.pay.uri)}">${escapeHtml(t('share.page.pay', { amount: rupees(p.pay.amount) }))}</a></section>`
    : '';
  const body = `<section class="card"><p class="company">${escapeHtml(company.name)}</p><div class="muted">${escapeHtml([company.add1, company.mob1].filter(Boolean).join(' · '))}</div>
<h1>${escapeHtml(title)} ${doc.kind === 'statement' ? '' : escapeHtml(doc.number)}</h1>${headline}
<dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>
${note ? `<div class="note">${escapeHtml(note)}</div>` : ''}
<a class="btn pdf" href="${escapeHtml(p.pdfHref)}">${escapeHtml(t('share.page.pdf'))}</a></section>${pay}
<footer>${escapeHtml(t('share.page.validUntil', { date: ddmmyyyy(p.expiresAt.toISOString().slice(0, 10)) }))}</footer>`;
  return shell(`${title} ${doc.number} - ${company.name}`, body, lang);
}

/** The friendly page of an unknown (404), expired or revoked (410) link. */
export function problemPage(status: 404 | 410 | 429, reason: 'unknown' | 'expired' | 'revoked' | 'busy', lang: ShareLang = 'en'): string {
  const t = textFor(lang);
  const title = t(`share.problem.${reason}.title`);
  return shell(title, `<section class="card center"><h1 data-status="${status}">${escapeHtml(title)}</h1><p class="muted">${escapeHtml(t(`share.problem.${reason}.text`))}</p></section>`, lang);
}

/** The language of a page with no link to ask (an unknown token): Hindi when the browser puts it first, else English. */
export function browserLang(acceptLanguage: string | undefined): ShareLang {
  const first = (acceptLanguage ?? '').split(',')[0]!.trim().toLowerCase();
  return first === 'hi' || first.startsWith('hi-') ? 'hi' : 'en';
}
