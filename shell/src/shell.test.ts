import { ApiError } from '@bahi/ui-kit';
import { data } from 'react-router-dom';
import { REMOTE_AREAS, navFor } from './remoteAreas';
import { describeError } from './pages/ErrorPage';

describe('sidebar entries by position (spec 000 §2)', () => {
  it('managers see every entry, in order', () => {
    expect(navFor('manager').map((e) => e.label)).toEqual([
      'Cart',
      'View Products',
      'Purchase Account',
      'Distributors',
      'Give Payment',
      'Product Details',
      'Categories',
      'Estimates',
      'Sells Account',
      'Customer Details',
      'Receive Payment',
      'Register',
      'Dashboard',
      'Reports',
      'Reorder List',
      'Expenses',
      'Opening Balances',
    ]);
  });

  it('staff see Estimates, Sells Account, Customer Details, Receive Payment and Register only', () => {
    expect(navFor('staff').map((e) => e.label)).toEqual(['Estimates', 'Sells Account', 'Customer Details', 'Receive Payment', 'Register']);
  });

  it('staff also see Expenses (not Opening Balances) while the company lets them record expenses', () => {
    expect(navFor('staff', { staff_expenses: true }).map((e) => e.label)).toEqual(['Estimates', 'Sells Account', 'Customer Details', 'Receive Payment', 'Register', 'Expenses']);
    expect(navFor('staff', { staff_expenses: false }).map((e) => e.label)).not.toContain('Expenses');
  });

  it('every sidebar entry leads to an area some remote renders', () => {
    const prefixes = REMOTE_AREAS.map((a) => `/${a.path}`);
    for (const e of navFor('manager')) {
      const path = e.to.split('?')[0];
      expect(prefixes.some((p) => (p === '/' ? path === '/' : path === p || path.startsWith(`${p}/`)))).toBe(true);
    }
  });
});

describe('error page content (spec 000 §2)', () => {
  const routeError = (status: number, body: unknown = null) => {
    const d = data(body, { status });
    // What the router hands to errorElement for a thrown data(): an ErrorResponse.
    return { status: d.init?.status ?? status, statusText: '', internal: false, data: d.data };
  };

  it('unknown routes: 404, Unexpected Application Error!, Page Not Found!', () => {
    expect(describeError(routeError(404))).toEqual({ status: 404, header: 'Unexpected Application Error!', message: 'Page Not Found!' });
  });

  it('other statuses default to An error occured! / Something went wrong!', () => {
    expect(describeError(routeError(500))).toEqual({ status: 500, header: 'An error occured!', message: 'Something went wrong!' });
    expect(describeError(routeError(403, { header: 'Not allowed', message: 'This page is for managers only.' }))).toEqual({
      status: 403,
      header: 'Not allowed',
      message: 'This page is for managers only.',
    });
  });

  it('render errors show Unexpected Application Error!', () => {
    expect(describeError(new TypeError('x is undefined')).header).toBe('Unexpected Application Error!');
    expect(describeError(new ApiError(401, 'Unauthorized')).status).toBe(401);
  });
});
