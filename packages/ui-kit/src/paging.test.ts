import { footerVisible, pageFromInput, pageFromQuery, pageLabel, rowTarget, visibleKeys } from './paging';

describe('paged table rules', () => {
  it('the sales side table (base 1) accepts 1 <= page <= noOfPages and maps them to zero-based pages', () => {
    expect(pageFromInput('1', 3)).toBe(0);
    expect(pageFromInput('3', 3)).toBe(2);
    expect(pageFromInput('3', 3, 1)).toBe(2);
    expect(pageFromInput('0', 3)).toBeNull();
    expect(pageFromInput('4', 3)).toBeNull();
    expect(pageFromInput('-1', 3)).toBeNull();
    expect(pageFromInput('1.5', 3)).toBeNull();
    expect(pageFromInput('', 3)).toBeNull();
    expect(pageFromInput('1', 0)).toBeNull();
    expect([pageLabel(0), pageLabel(2, 1)]).toEqual([1, 3]);
  });

  it('back-office lists (base 0) accept 0 <= page < noOfPages, the page itself', () => {
    expect(pageFromInput('0', 3, 0)).toBe(0);
    expect(pageFromInput('2', 3, 0)).toBe(2);
    expect(pageFromInput('3', 3, 0)).toBeNull();
    expect(pageFromInput('-1', 3, 0)).toBeNull();
    expect(pageFromInput('0.5', 3, 0)).toBeNull();
    // An empty box is not page 0.
    expect(pageFromInput('', 3, 0)).toBeNull();
    expect(pageFromInput('  ', 3, 0)).toBeNull();
    expect(pageFromInput('0', 0, 0)).toBeNull();
    expect([pageLabel(0, 0), pageLabel(2, 0)]).toEqual([0, 2]);
  });

  it('reads a zero-based pageNo from the query string, defaulting to 0', () => {
    expect(pageFromQuery(null)).toBe(0);
    expect(pageFromQuery('2')).toBe(2);
    expect(pageFromQuery('-1')).toBe(0);
    expect(pageFromQuery('x')).toBe(0);
  });

  it('hides the footer for a single page holding a single row', () => {
    expect(footerVisible(1, 1)).toBe(false);
    expect(footerVisible(1, 2)).toBe(true);
    expect(footerVisible(2, 1)).toBe(true);
  });

  it('does not display fields starting with hide, and hide_url replaces id in the target', () => {
    const row = { id: 4, name: 'A', hide_url: 'x9', hideSecret: 1 };
    expect(visibleKeys(row)).toEqual(['id', 'name']);
    expect(rowTarget('/admin/company', row)).toBe('/admin/company/x9');
    expect(rowTarget('/admin/company/', { id: 7 })).toBe('/admin/company/7');
  });
});
