import { renderToString } from 'react-dom/server';
import { applyLanguage, i18n } from '@bahi/i18n';
import { AlertProvider } from './alert';
import { Pager } from './Pager';
import { ShareButton } from './ShareButton';
import './i18n';

const ui = (key: string, values: Record<string, unknown> = {}) => i18n.t(`ui:${key}`, values);

/** Switches the shared instance and waits for the ui messages (init finishes a tick after the first switch). */
async function speak(lng: 'en' | 'hi') {
  if (!i18n.isInitialized) await new Promise((resolve) => i18n.on('initialized', resolve));
  await applyLanguage(lng);
  await i18n.loadNamespaces('ui');
  expect(i18n.hasLoadedNamespace('ui')).toBe(true);
}

describe('ui-kit in English and Hindi', () => {
  afterAll(() => applyLanguage('en'));

  it('keeps the spec texts exact in English and says them in Hindi', async () => {
    await speak('en');
    expect(ui('pager.notValid')).toBe('Page Number Not Valid');
    expect(ui('table.loadError')).toBe('unable to connet to server');
    expect(ui('table.empty')).toBe('No records found.');
    await speak('hi');
    expect(ui('pager.notValid')).toBe('पेज नंबर सही नहीं है');
    expect(ui('table.empty')).toBe('कोई रिकॉर्ड नहीं मिला।');
  });

  it('counts rows with ICU plurals in both languages, numbers grouped en-IN (lakh)', async () => {
    await speak('en');
    expect(ui('import.rows', { count: 1 })).toBe('1 row');
    expect(ui('import.rows', { count: 125000 })).toBe('1,25,000 rows');
    expect(ui('import.modeValid', { count: 1 })).toBe('Import the 1 valid row and skip the rest');
    expect(ui('import.modeValid', { count: 1200 })).toBe('Import the 1,200 valid rows and skip the rest');
    expect(ui('import.summary', { done: '3', total: '3', created: '2', updated: '0', skipped: '1' })).toBe('3 of 3 rows · 2 added · 0 updated · 1 skipped');
    await speak('hi');
    expect(ui('import.rows', { count: 1 })).toBe('1 पंक्ति');
    expect(ui('import.rows', { count: 125000 })).toBe('1,25,000 पंक्तियाँ');
    expect(ui('import.modeValid', { count: 1 })).toBe('1 सही पंक्ति इम्पोर्ट करें, बाकी छोड़ दें');
    expect(ui('import.summary', { done: '3', total: '3', created: '2', updated: '0', skipped: '1' })).toBe('3 में से 3 पंक्तियाँ · 2 जुड़े · 0 बदले · 1 छोड़े');
  });

  it('renders the pager in the active language', async () => {
    const pager = () => renderToString(
      <AlertProvider>
        <Pager pageNo={1} noOfPages={5} onPage={() => {}} />
      </AlertProvider>,
    );
    await speak('en');
    const en = pager();
    for (const text of ['Prev', 'Next', 'Go', 'of 5', 'placeholder="Page Number"', 'aria-label="Pages"']) expect(en).toContain(text);
    await speak('hi');
    const hi = pager();
    for (const text of ['पिछला', 'अगला', 'जाएँ', 'कुल 5', 'placeholder="पेज नंबर"', 'aria-label="पेज"']) expect(hi).toContain(text);
    expect(hi).not.toContain('Prev');
  });

  it('picks the share message language of the screen by default', async () => {
    const share = () => renderToString(
      <AlertProvider>
        <ShareButton kind="bill" id={7} />
      </AlertProvider>,
    );
    const selected = (html: string) => /<option value="(\w+)" selected="">/.exec(html)?.[1];
    await speak('en');
    const en = share();
    expect(selected(en)).toBe('en');
    expect(en).toContain('Share on WhatsApp');
    await speak('hi');
    const hi = share();
    expect(selected(hi)).toBe('hi');
    expect(hi).toContain('WhatsApp पर भेजें');
    expect(hi).toContain('aria-label="संदेश की भाषा"');
  });
});
