import type { CompanyDetails } from '@bahi/contracts';
import { parseLang } from '../i18n';
import type { CompanyView } from '../templates/model';
import type { DocumentRequest, DocumentSources } from './kinds';

const LOGO_TTL_MS = 60_000;
const LOGO_MAX_BYTES = 2 * 1024 * 1024;

/**
 * The company header for a document, printed in `?lang=` (en, hi) when given, else in the
 * company's doc_language (400 for any other lang).
 */
export async function companyFor(req: DocumentRequest, src: DocumentSources): Promise<CompanyView> {
  const lang = parseLang(req.query.lang);
  const company = await src.company(req.companyId);
  return lang ? { ...company, docLanguage: lang } : company;
}

/**
 * The company header: details from identity over NATS, the logo bytes over identity's internal
 * HTTP (GET /companyLogo/:id) inlined as a data: URI, since the page may load nothing else.
 * Logos are kept a minute so a run of bills doesn't fetch the same image each time.
 */
export class CompanyHeaders {
  private readonly logos = new Map<number, { at: number; uri: string | null }>();

  constructor(
    private readonly details: (companyId: number) => Promise<CompanyDetails>,
    private readonly identityUrl: string,
    private readonly log: (msg: string) => void = () => {},
  ) {}

  async get(companyId: number): Promise<CompanyView> {
    const d = await this.details(companyId);
    const logo = d.logo ? await this.logo(companyId) : null;
    return { id: d.id, name: d.name, add1: d.add1, add2: d.add2, mob1: d.mob1, mob2: d.mob2, email: d.email, upiId: d.upiId ?? null, billFormat: d.bill_format ?? 'a5', docLanguage: d.doc_language ?? 'en', logo, gstin: d.gstin ?? null, stateCode: d.state_code ?? null };
  }

  private async logo(companyId: number): Promise<string | null> {
    const hit = this.logos.get(companyId);
    if (hit && Date.now() - hit.at < LOGO_TTL_MS) return hit.uri;
    let uri: string | null = null;
    try {
      const res = await fetch(`${this.identityUrl}/companyLogo/${companyId}`, { signal: AbortSignal.timeout(3000) });
      const type = res.headers.get('content-type') ?? '';
      if (res.ok && type.startsWith('image/')) {
        const bytes = Buffer.from(await res.arrayBuffer());
        if (bytes.length <= LOGO_MAX_BYTES) uri = `data:${type.split(';')[0]};base64,${bytes.toString('base64')}`;
      }
    } catch (err) {
      // A missing logo never stops a bill from printing.
      this.log(`company ${companyId} logo not loaded: ${(err as Error).message}`);
    }
    this.logos.set(companyId, { at: Date.now(), uri });
    return uri;
  }
}
