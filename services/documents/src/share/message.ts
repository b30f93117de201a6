import { DEFAULT_SHARE_TEMPLATES, type CompanyDetails, type ShareLang, type ShareTemplates } from '@bahi/contracts';
import { stripBidi } from '@bahi/service-kit';
import { amount as grouped, date as ddmmyyyy } from '../render/format';
import type { ShareSummary } from './summary';

/** Rs 1,23,456.50: the amount as WhatsApp shows it (plain text, lakh grouping, 2 decimals). */
export function rs(value: string): string {
  return `Rs ${grouped(value)}`;
}

const DOCUMENT_WORDS: Record<ShareLang, Record<ShareSummary['kind'], string>> = {
  en: { bill: 'bill', estimate: 'estimate', receipt: 'receipt', statement: 'statement', 'credit-note': 'credit note' },
  hi: { bill: 'बिल', estimate: 'अनुमान पत्र', receipt: 'रसीद', statement: 'खाता विवरण', 'credit-note': 'क्रेडिट नोट' },
};

/** "bill 12", "tax invoice INV/26-27/0001", "statement". */
export function documentName(s: ShareSummary, lang: ShareLang): string {
  const word = lang === 'en' && s.title === 'Tax invoice' ? 'tax invoice' : DOCUMENT_WORDS[lang][s.kind];
  return s.kind === 'statement' ? word : `${word} ${s.number}`;
}

/** The company's template, a default where it has none (identity fills them; an older identity may not). */
export function templateOf(company: Pick<CompanyDetails, 'share_templates'>, which: keyof ShareTemplates, lang: ShareLang): string {
  const t = company.share_templates?.[which]?.[lang];
  return t && t.trim() ? t : DEFAULT_SHARE_TEMPLATES[which][lang];
}

/** The amount a message names: a receipt's amount received; else what is due when something is, else the document's amount. */
export function messageAmount(s: ShareSummary): string {
  if (s.kind === 'receipt') return s.amount;
  return s.due !== null && Number(s.due) > 0 ? s.due : s.amount;
}

/** Fills {name} {amount} {due_date} {link} {company} {document}; an unknown {word} is left as written. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (Object.prototype.hasOwnProperty.call(values, key) ? values[key]! : whole));
}

export function shareMessage(template: string, s: ShareSummary, p: { company: string; link: string; lang: ShareLang }): string {
  // Names saved before the services stripped bidi controls must not reverse the message either.
  return stripBidi(fillTemplate(template, {
    name: s.customerName || (p.lang === 'hi' ? 'ग्राहक' : 'Customer'),
    amount: rs(messageAmount(s)),
    due_date: s.dueDate ? ddmmyyyy(s.dueDate) : '-',
    link: p.link,
    company: p.company,
    document: documentName(s, p.lang),
  }));
}

/** https://wa.me/91<mobile>?text=..., or https://wa.me/?text=... (WhatsApp asks whom to send it to). */
export function whatsappUrl(mobile: string | null, message: string): string {
  return `https://wa.me/${mobile ? `91${mobile}` : ''}?text=${encodeURIComponent(message)}`;
}
