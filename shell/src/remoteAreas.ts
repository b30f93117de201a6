// Which remote renders which part of the main shell (spec 000 §2). Each entry is mounted at
// `path` (with a trailing /* so the remote's own <Routes> take the rest, relative to it).
// To add a page area: add a line here and expose `module` from the remote's federation.config.js.
export interface RemoteArea {
  path: string;
  remote: string;
  module: string;
  title: string;
  managerOnly?: boolean;
}

export const REMOTE_AREAS: RemoteArea[] = [
  { path: '', remote: 'sales', module: './Cart', title: 'Create Sell' },
  { path: 'estimateList', remote: 'sales', module: './Estimates', title: 'Estimates' },
  { path: 'salesList', remote: 'sales', module: './SalesList', title: 'Sells Account' },
  { path: 'clientList', remote: 'sales', module: './Clients', title: 'Customer Details' },
  { path: 'register', remote: 'sales', module: './Register', title: 'Register' },
  { path: 'product', remote: 'catalogue', module: './Products', title: 'View Products', managerOnly: true },
  { path: 'productItem', remote: 'catalogue', module: './ProductItems', title: 'Product Details', managerOnly: true },
  { path: 'productsCatagory', remote: 'catalogue', module: './Categories', title: 'Categories', managerOnly: true },
  { path: 'purchaseList', remote: 'purchase', module: './PurchaseList', title: 'Purchase Account', managerOnly: true },
  { path: 'purchase', remote: 'purchase', module: './Purchase', title: 'Purchase', managerOnly: true },
  { path: 'purchaseProducts', remote: 'purchase', module: './PurchaseProducts', title: 'Purchase', managerOnly: true },
  { path: 'distributor', remote: 'purchase', module: './Distributors', title: 'Distributors', managerOnly: true },
  { path: 'reorderList', remote: 'purchase', module: './Reorder', title: 'Reorder List', managerOnly: true },
  { path: 'payments/givePayment', remote: 'payments', module: './GivePayment', title: 'Give Payment', managerOnly: true },
  { path: 'payments/receivePayment', remote: 'payments', module: './ReceivePayment', title: 'Receive Payment' },
  // Staff reach it while the company lets them record expenses (the ledger decides; see navFor).
  { path: 'payments/expenses', remote: 'payments', module: './Expenses', title: 'Expenses' },
  { path: 'reports', remote: 'reports', module: './Reports', title: 'Reports', managerOnly: true },
];

export interface NavEntry {
  to: string;
  label: string;
  icon: string;
  managerOnly?: boolean;
  /** Active only on exactly this path (not on the pages below it). */
  end?: boolean;
  /** Also active on every page under this path (the Reports entry on each report). */
  activeUnder?: string;
  /** Shown to staff too while this company setting is on (getCompanyDetails). */
  staffSetting?: 'staff_expenses';
}

// Sidebar (spec 000 §2): the first seven only for managers, the next four for everyone; then
// the Dashboard (managers' landing page), Reports (GST returns) and the Reorder List (purchase area), for managers.
export const NAV: NavEntry[] = [
  { to: '/', label: 'Cart', icon: 'cart', managerOnly: true },
  { to: '/product/null', label: 'View Products', icon: 'grid', managerOnly: true },
  { to: '/purchaseList', label: 'Purchase Account', icon: 'truck', managerOnly: true },
  { to: '/distributor', label: 'Distributors', icon: 'users', managerOnly: true },
  { to: '/payments/givePayment', label: 'Give Payment', icon: 'arrowUp', managerOnly: true },
  { to: '/productItem', label: 'Product Details', icon: 'box', managerOnly: true },
  { to: '/productsCatagory', label: 'Categories', icon: 'tag', managerOnly: true },
  { to: '/estimateList', label: 'Estimates', icon: 'file', managerOnly: false },
  { to: '/salesList', label: 'Sells Account', icon: 'receipt', managerOnly: false },
  { to: '/clientList', label: 'Customer Details', icon: 'person', managerOnly: false },
  { to: '/payments/receivePayment', label: 'Receive Payment', icon: 'arrowDown', managerOnly: false },
  // Issue 29: each cashier's register session (open, running totals, close, Z report).
  { to: '/register', label: 'Register', icon: 'receipt', managerOnly: false },
  { to: '/reports', label: 'Dashboard', icon: 'chart', managerOnly: true, end: true },
  { to: '/reports/gst', label: 'Reports', icon: 'chart', managerOnly: true, activeUnder: '/reports/' },
  { to: '/reorderList', label: 'Reorder List', icon: 'box', managerOnly: true },
  // Issue 29: expenses (staff too when the company allows) and the books' opening balances.
  { to: '/payments/expenses', label: 'Expenses', icon: 'receipt', managerOnly: true, end: true, staffSetting: 'staff_expenses' },
  { to: '/payments/expenses/opening', label: 'Opening Balances', icon: 'file', managerOnly: true },
];

export function navFor(position: string | undefined, settings: Partial<Record<NonNullable<NavEntry['staffSetting']>, boolean>> = {}): NavEntry[] {
  return NAV.filter((e) => !e.managerOnly || position === 'manager' || (position === 'staff' && e.staffSetting && settings[e.staffSetting] === true));
}
