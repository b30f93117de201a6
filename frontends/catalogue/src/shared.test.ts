import { applyLanguage, i18n } from '@bahi/i18n';
import './i18n';
import { moveRow, STOCK_LEVELS } from './rows';

beforeAll(async () => {
  await applyLanguage('en');
  await i18n.loadNamespaces('catalogue');
});

describe('stock book row order', () => {
  it('moves a row up and down and leaves the ends alone', () => {
    expect(moveRow(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moveRow(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    expect(moveRow(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveRow(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });
  it('names the stock filter values 0 Low, 1 On, 2 High', () => {
    expect(STOCK_LEVELS.map((l) => `${l.value} ${l.label}`)).toEqual(['0 Low', '1 On', '2 High']);
  });
  it('names them in Hindi once Hindi is chosen', async () => {
    await applyLanguage('hi');
    await i18n.loadNamespaces('catalogue');
    expect(STOCK_LEVELS.map((l) => l.label)).toEqual(['कम', 'ठीक', 'ज़्यादा']);
    await applyLanguage('en');
  });
});
