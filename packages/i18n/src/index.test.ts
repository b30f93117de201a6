import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { i18n, registerCatalogue, applyLanguage, setLanguage, setLanguagePersister, translateServerMessage, useLanguage, type Language } from './index';
import { matchServerMessage } from './server';

const loaded: Language[] = [];
registerCatalogue('demo', async (lng) => {
  loaded.push(lng);
  return lng === 'en'
    ? { default: { cart: { title: 'Cart', items: '{count, plural, one {# item} other {# items}}', hello: 'Hello {name}' } } }
    : { default: { cart: { title: 'कार्ट', items: '{count, plural, one {# वस्तु} other {# वस्तुएँ}}', hello: 'नमस्ते {name}' } } };
});

function Shown() {
  return createElement('span', null, useLanguage());
}

describe('@bahi/i18n runtime', () => {
  afterAll(async () => {
    setLanguagePersister(null);
    await applyLanguage('en');
  });

  it('loads only the active language, formats ICU plurals and switches without a reload', async () => {
    await applyLanguage('en');
    await i18n.loadNamespaces('demo');
    expect(loaded).toEqual(['en']);
    expect(i18n.hasResourceBundle('hi', 'demo')).toBe(false);
    expect(i18n.t('demo:cart.title')).toBe('Cart');
    expect(i18n.t('demo:cart.items', { count: 1 })).toBe('1 item');
    // en-IN grouping inside a plural: 1,00,000 (lakh), not 100,000.
    expect(i18n.t('demo:cart.items', { count: 100000 })).toBe('1,00,000 items');
    expect(i18n.t('demo:cart.hello', { name: 'Asha' })).toBe('Hello Asha');
    expect(renderToString(createElement(Shown))).toBe('<span>en</span>');

    await applyLanguage('hi');
    await i18n.loadNamespaces('demo');
    expect(loaded).toEqual(['en', 'hi']);
    expect(i18n.t('demo:cart.title')).toBe('कार्ट');
    expect(i18n.t('demo:cart.items', { count: 1 })).toBe('1 वस्तु');
    expect(i18n.t('demo:cart.items', { count: 3 })).toBe('3 वस्तुएँ');
    expect(i18n.t('demo:cart.hello', { name: 'Asha' })).toBe('नमस्ते Asha');
    expect(renderToString(createElement(Shown))).toBe('<span>hi</span>');
  });

  it('setLanguage tells the server through the persister the shell installs', async () => {
    const told: Language[] = [];
    setLanguagePersister(async (lng) => void told.push(lng));
    await setLanguage('en');
    await setLanguage('hi');
    expect(told).toEqual(['en', 'hi']);
    expect(i18n.language).toBe('hi');
    await expect(setLanguage('fr' as Language)).rejects.toThrow('Unknown language: fr');
    expect(told).toEqual(['en', 'hi']);
  });

  it('service messages: English unchanged, Hindi through exact texts and patterns', async () => {
    const cat = {
      messages: { 'Quantity must be at least 1.': 'मात्रा कम से कम 1 होनी चाहिए।', 'out of stock': 'स्टॉक में नहीं' },
      patterns: { 'Product {code} not found.': 'प्रोडक्ट {code} नहीं मिला।', 'Row {row}: {reason}': 'पंक्ति {row}: {reason}' },
    };
    expect(matchServerMessage(cat, 'Quantity must be at least 1.')).toBe('मात्रा कम से कम 1 होनी चाहिए।');
    expect(matchServerMessage(cat, 'Product P-12 not found.')).toBe('प्रोडक्ट P-12 नहीं मिला।');
    expect(matchServerMessage(cat, 'Row 4: out of stock')).toBe('पंक्ति 4: स्टॉक में नहीं');
    expect(matchServerMessage(cat, 'Product A not found., Quantity must be at least 1.')).toBe('प्रोडक्ट A नहीं मिला।, मात्रा कम से कम 1 होनी चाहिए।');
    expect(matchServerMessage(cat, 'Something new')).toBeUndefined();

    await applyLanguage('hi');
    await i18n.loadNamespaces('server');
    i18n.addResourceBundle('hi', 'server', cat, true, true);
    expect(translateServerMessage('Product X9 not found.')).toBe('प्रोडक्ट X9 नहीं मिला।');
    expect(translateServerMessage('Unknown text stays')).toBe('Unknown text stays');
    await applyLanguage('en');
    expect(translateServerMessage('Product X9 not found.')).toBe('Product X9 not found.');
  });
});
