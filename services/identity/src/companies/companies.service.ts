import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { GstError, validateCompanyGst } from '@bahi/gst';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { DEFAULT_EWAYBILL_THRESHOLD, DEFAULT_SHARE_EXPIRY_DAYS, DEFAULT_SHARE_TEMPLATES, SHARE_TEMPLATE_MAX, TEMPLATE_PLACEHOLDERS, type CompanyDetails, type ShareTemplates } from '@bahi/contracts';
import { SequenceService } from '@bahi/service-kit';
import { PLATFORM } from '../users/users.service';
import { Company, type CompanyDocument } from './company.schema';

export function companyDetails(c: Company): CompanyDetails {
  return {
    id: c.id,
    name: c.name,
    add1: c.add1 ?? '',
    add2: c.add2 ?? '',
    mob1: c.mob1 ?? '',
    mob2: c.mob2 ?? '',
    email: c.email ?? '',
    logo: c.logo ? `/companyLogo/${c.id}` : null,
    upiId: c.upiId ?? null,
    tax_mode: c.tax_mode ?? 'simple',
    gstin: c.gstin ?? null,
    state_code: c.gstin ? c.gstin.slice(0, 2) : null,
    invoice_prefix: c.invoice_prefix ?? defaultInvoicePrefix(c.name),
    gst_filing: c.gst_filing === 'quarterly' ? 'quarterly' : 'monthly',
    aato_above_5cr: c.aato_above_5cr === true,
    pincode: c.pincode ?? '',
    place: c.place ?? '',
    ewaybill_threshold: typeof c.ewaybill_threshold === 'number' ? c.ewaybill_threshold : DEFAULT_EWAYBILL_THRESHOLD,
    itc_from_matched_only: c.itc_from_matched_only === true,
    bill_format: c.bill_format ?? 'a5',
    doc_language: c.doc_language === 'hi' ? 'hi' : 'en',
    share_expiry_days: c.share_expiry_days ?? DEFAULT_SHARE_EXPIRY_DAYS,
    share_templates: shareTemplates(c.share_templates),
    staff_max_discount_percent: typeof c.staff_max_discount_percent === 'number' ? c.staff_max_discount_percent : 100,
    walkin_credit: c.walkin_credit === 'refuse' || c.walkin_credit === 'allow' ? c.walkin_credit : 'confirm',
    staff_expenses: c.staff_expenses === true,
    require_register: c.require_register === true,
  };
}

type StoredTemplates = Company['share_templates'];
const TEMPLATE_KINDS = ['document', 'reminder', 'gstr2b_missing'] as const;
const LANGS = ['en', 'hi'] as const;

/** The company's templates: what it edited over the shipped defaults. */
export function shareTemplates(stored: StoredTemplates): ShareTemplates {
  const pick = (k: (typeof TEMPLATE_KINDS)[number], l: (typeof LANGS)[number]) => stored?.[k]?.[l] || DEFAULT_SHARE_TEMPLATES[k][l];
  return {
    document: { en: pick('document', 'en'), hi: pick('document', 'hi') },
    reminder: { en: pick('reminder', 'en'), hi: pick('reminder', 'hi') },
    gstr2b_missing: { en: pick('gstr2b_missing', 'en'), hi: pick('gstr2b_missing', 'hi') },
  };
}

/**
 * The edited templates a setCompanyDetails body leads to, merged over the stored ones: a template
 * left out is kept, '' goes back to the default. 400 naming the template for an unknown key, a
 * template over SHARE_TEMPLATE_MAX characters or a {placeholder} its kind does not have (TEMPLATE_PLACEHOLDERS).
 */
export function mergeShareTemplates(stored: StoredTemplates, body: Record<string, unknown>): StoredTemplates {
  const out: Record<string, Record<string, string>> = {};
  for (const k of TEMPLATE_KINDS) out[k] = { ...(stored?.[k] ?? {}) } as Record<string, string>;
  for (const [k, langs] of Object.entries(body)) {
    if (!(TEMPLATE_KINDS as readonly string[]).includes(k)) throw new BadRequestException(`share_templates may hold only ${TEMPLATE_KINDS.join(', ')}, not '${k}'.`);
    if (langs === undefined) continue;
    if (!langs || typeof langs !== 'object' || Array.isArray(langs)) throw new BadRequestException(`share_templates.${k} must be an object: {en, hi}.`);
    for (const [l, text] of Object.entries(langs as Record<string, unknown>)) {
      const field = `share_templates.${k}.${l}`;
      if (!(LANGS as readonly string[]).includes(l)) throw new BadRequestException(`share_templates.${k} may hold only en and hi, not '${l}'.`);
      if (text === undefined) continue;
      if (typeof text !== 'string') throw new BadRequestException(`${field} must be text.`);
      const t = text.trim();
      if (t.length > SHARE_TEMPLATE_MAX) throw new BadRequestException(`${field} has ${t.length} characters; at most ${SHARE_TEMPLATE_MAX} are allowed.`);
      const allowed = TEMPLATE_PLACEHOLDERS[k as keyof ShareTemplates];
      for (const m of t.matchAll(/\{([^{}]*)\}/g)) {
        if (!allowed.includes(m[1]!)) {
          throw new BadRequestException(`${field} has an unknown placeholder {${m[1]}}; use ${allowed.map((p) => `{${p}}`).join(' ')}.`);
        }
      }
      // '' (or the default itself) is stored as no edit, so a later change of the defaults reaches it.
      if (t === '' || t === DEFAULT_SHARE_TEMPLATES[k as 'document'][l as 'en']) delete out[k]![l];
      else out[k]![l] = t;
    }
  }
  const kept = Object.entries(out).filter(([, v]) => Object.keys(v).length > 0);
  return kept.length ? (Object.fromEntries(kept) as StoredTemplates) : null;
}

/**
 * The invoice prefix a company gets when it sets none: the initials of its name's words (up to 4,
 * so 4-digit serials still fit in 16 characters), or the first 3 letters of a one-word name,
 * or INV when the name has no Latin letters or digits. "Demo Traders" -> DT, "Reliance" -> REL.
 */
export function defaultInvoicePrefix(name: string): string {
  const words = String(name ?? '').toUpperCase().split(/[^A-Z0-9]+/).filter(Boolean);
  if (words.length === 0) return 'INV';
  if (words.length === 1) return words[0].slice(0, 3);
  return words.map((w) => w[0]).join('').slice(0, 4);
}

@Injectable()
export class CompaniesService {
  constructor(
    @InjectModel(Company.name) readonly model: Model<Company>,
    private readonly seq: SequenceService,
  ) {}

  async get(id: number): Promise<CompanyDocument> {
    const c = await this.model.findOne({ id });
    if (!c) throw new NotFoundException(`Company ${id} not found.`);
    return c;
  }

  /**
   * The GST settings a setCompanyDetails body leads to, merged over the company's current ones:
   * a field left out keeps its value (clients that predate GST never change the mode); '' or null
   * clears the GSTIN and resets the prefix to the default. 400 naming the wrong part, before
   * anything is written.
   */
  gstSettings(current: Company, body: { name: string; tax_mode?: string; gstin?: string | null; invoice_prefix?: string | null }): Pick<Company, 'tax_mode' | 'gstin' | 'invoice_prefix'> {
    const tax_mode = body.tax_mode ?? current.tax_mode ?? 'simple';
    const gstin = body.gstin !== undefined ? body.gstin : (current.gstin ?? null);
    const asked = body.invoice_prefix !== undefined ? body.invoice_prefix : (current.invoice_prefix ?? null);
    // An explicit prefix is kept as given; a default one is stored only once the company invoices (gst/composition).
    const prefix = asked || defaultInvoicePrefix(body.name || current.name);
    let checked;
    try {
      checked = validateCompanyGst({ tax_mode, gstin, invoice_prefix: prefix });
    } catch (err) {
      if (err instanceof GstError) throw new BadRequestException(err.message);
      throw err;
    }
    return {
      tax_mode: checked.tax_mode,
      gstin: checked.gstin,
      invoice_prefix: asked ? checked.invoice_prefix : checked.tax_mode !== 'simple' ? checked.invoice_prefix : null,
    };
  }

  async create(input: Partial<Company> & { name: string }): Promise<Company> {
    const id = await this.seq.next(PLATFORM, 'company');
    return (await this.model.create({ ...input, id })).toObject();
  }
}
