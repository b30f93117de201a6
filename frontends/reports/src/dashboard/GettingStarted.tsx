import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { CompanyDetails } from '@bahi/contracts';
import { useTranslation } from '@bahi/i18n';
import { api } from '@bahi/ui-kit';

/** The first day's steps (issue 32), each ticked from the company's own data. */
export type StepKey = 'profile' | 'category' | 'products' | 'purchase' | 'printer' | 'users' | 'backups';
export type Steps = Record<StepKey, boolean>;

const STEPS: { key: StepKey; to: string; alt?: { to: string; label: string } }[] = [
  { key: 'profile', to: '/setting' },
  // A product cannot be saved without a category (the API requires catagory).
  { key: 'category', to: '/productsCatagory/add' },
  { key: 'products', to: '/productItem/addProducts', alt: { to: '/productItem/import', label: 'import' } },
  { key: 'purchase', to: '/distributor', alt: { to: '/', label: 'cart' } },
  { key: 'printer', to: '/setting' },
  { key: 'users', to: '/setting' },
  { key: 'backups', to: '/setting' },
];

/** A failed or missing call counts as not done, except backups where the installation does not run them (501). */
const ask = <T,>(path: string, query?: Record<string, string | number>) => api.get<T>(path, { query, authRedirect: false });

export async function loadSteps(): Promise<Steps> {
  const [company, categories, products, distributors, purchases, printers, users, backups] = await Promise.allSettled([
    ask<CompanyDetails>('/getCompanyDetails'),
    ask<{ categoryList: unknown[] }>('/getCategoryList'),
    ask<{ count: number }>('/getProductList', { pageNo: 0 }),
    ask<{ allDistributorsList: unknown[] }>('/getAllDistributorsList'),
    ask<{ purchaseList: unknown[] }>('/getPurchaseList', { pageNo: 0 }),
    ask<{ printers: unknown[] }>('/printers'),
    ask<{ users: unknown[] }>('/users'),
    ask<{ reasons: string[] }>('/backupStatus'),
  ]);
  const ok = <T,>(r: PromiseSettledResult<T>): T | null => (r.status === 'fulfilled' ? r.value : null);
  const c = ok(company);
  const gstReady = !c || (c.tax_mode ?? 'simple') === 'simple' || !!c.gstin;
  const b = ok(backups);
  const notRunHere = backups.status === 'rejected' && (backups.reason as { status?: number })?.status === 501;
  return {
    profile: !!c && !!c.add1?.trim() && !!c.mob1?.trim() && gstReady,
    category: (ok(categories)?.categoryList?.length ?? 0) > 0,
    products: (ok(products)?.count ?? 0) > 0,
    purchase: (ok(distributors)?.allDistributorsList.length ?? 0) > 0 && (ok(purchases)?.purchaseList.length ?? 0) > 0,
    printer: (ok(printers)?.printers.length ?? 0) > 0,
    users: (ok(users)?.users.length ?? 0) > 1,
    backups: notRunHere || (!!b && b.reasons.length === 0),
  };
}

/** Shown on the dashboard of a company until every step is done; each step links to its screen. */
export function GettingStarted() {
  const { t } = useTranslation('reports');
  const [steps, setSteps] = useState<Steps | null>(null);
  useEffect(() => {
    let live = true;
    loadSteps().then((s) => live && setSteps(s), () => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (!steps) return null;
  const done = STEPS.filter((s) => steps[s.key]).length;
  if (done === STEPS.length) return null;
  return (
    <section className="bk-card db-start" data-testid="getting-started" aria-labelledby="db-start-title">
      <div className="bk-card__body">
        <h2 id="db-start-title">{t('start.title')}</h2>
        <p className="bk-muted">{t('start.progress', { done: String(done), total: String(STEPS.length) })}</p>
        <ol className="db-start__list">
          {STEPS.map((s) => (
            <li key={s.key} className={steps[s.key] ? 'db-start__item is-done' : 'db-start__item'} data-testid={`start-${s.key}`} data-done={steps[s.key] ? '1' : '0'}>
              <span className="db-start__tick" aria-hidden="true">
                {steps[s.key] ? '✓' : ''}
              </span>
              <span className="db-start__text">
                <Link to={s.to}>{t(`start.${s.key}.title`)}</Link>
                <span className="bk-muted"> — {t(`start.${s.key}.hint`)}</span>
                {s.alt && (
                  <>
                    {' '}
                    <Link to={s.alt.to}>{t(`start.${s.key}.${s.alt.label}`)}</Link>
                  </>
                )}
              </span>
              <span className="db-start__state">{steps[s.key] ? t('start.done') : t('start.todo')}</span>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
