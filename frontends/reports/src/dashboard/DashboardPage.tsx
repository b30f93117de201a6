import { Suspense, useState } from 'react';
import { GettingStarted } from './GettingStarted';
import { Link } from 'react-router-dom';
import { Button, Spinner, formatINR, openDocument, useAlert } from '@bahi/ui-kit';
import { i18n, useTranslation } from '@bahi/i18n';
import { Chart } from '../charts/Chart';
import { BUCKET_KEYS, CARD_KEYS, barWidth, compare, formatDate, riseIsGood, shortDate } from './model';
import type { CardKey, DashboardReply, OverdueParty, TopProduct } from './types';
import { useDashboard } from './useDashboard';
import './dashboard.css';

// Hindi on a 24-hour clock: the locale's own day period reads "am"/"pm" untranslated.
const timeOf = (d: Date) =>
  i18n.language === 'hi'
    ? d.toLocaleTimeString('hi-IN', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
    : d.toLocaleTimeString('en-IN', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** /reports: the manager's landing page - today against yesterday, 30 days, products, dues, stock. */
export function DashboardPage() {
  // The figures are asked for at once; the words (the catalogue may still be loading) suspend
  // only the view below, so the two requests run side by side on a cold start.
  const state = useDashboard();
  return (
    <Suspense fallback={null}>
      <DashboardView {...state} />
    </Suspense>
  );
}

function DashboardView({ data, error, loading, updatedAt, refresh }: ReturnType<typeof useDashboard>) {
  const { t } = useTranslation('reports');

  return (
    <div className="db-page" data-testid="dashboard">
      <div className="bk-page-title db-head">
        <div>
          <h1>{t('dashboard.title')}</h1>
          {data && (
            <p className="bk-muted db-sub" data-testid="dashboard-date">
              {t('dashboard.subtitle', { date: formatDate(data.date) })}
              {updatedAt && <span className="db-updated">{t('dashboard.updated', { time: timeOf(updatedAt) })}</span>}
            </p>
          )}
        </div>
        <Button variant="secondary" busy={loading && !!data} onClick={refresh} data-testid="dashboard-refresh">
          {t('dashboard.refresh')}
        </Button>
      </div>

      <GettingStarted />
      {!data && loading && <Spinner label={t('dashboard.loading')} />}
      {!data && !loading && error && (
        <div className="bk-card bk-card__body db-error" role="alert" data-testid="dashboard-error">
          <p className="db-error__head">{t('dashboard.error')}</p>
          <p className="bk-muted">{error}</p>
          <Button onClick={refresh}>{t('dashboard.retry')}</Button>
        </div>
      )}
      {data && error && (
        <p className="db-stale" role="status" data-testid="dashboard-stale">
          {t('dashboard.stale', { message: error, time: updatedAt ? timeOf(updatedAt) : '' })}
        </p>
      )}
      {data && <Figures data={data} />}
    </div>
  );
}

function Figures({ data }: { data: DashboardReply }) {
  const { t } = useTranslation('reports');
  return (
    <>
      <section className="db-cards" aria-label={t('dashboard.cardsLabel')}>
        {CARD_KEYS.map((k) => (
          <FigureCard key={k} name={k} today={data.cards[k].today} yesterday={data.cards[k].yesterday} />
        ))}
      </section>

      <LowStock count={data.lowStock} />

      <div className="db-grid db-grid--wide">
        <section className="bk-card db-panel">
          <h2 className="db-panel__title">{t('dashboard.trend.title')}</h2>
          <Chart
            kind="line"
            testId="dashboard-trend"
            title={t('dashboard.trend.title')}
            categoryLabel={t('dashboard.trend.date')}
            categories={data.series.map((d) => shortDate(d.date))}
            series={[
              { name: t('dashboard.trend.sales'), data: data.series.map((d) => d.sales) },
              { name: t('dashboard.trend.collections'), data: data.series.map((d) => d.collections) },
            ]}
            height={320}
          />
        </section>
        <Receivables data={data} />
      </div>

      <div className="db-grid">
        <TopList testId="dashboard-top-value" title={t('dashboard.top.byValue')} rows={data.topByValue} figure="value" period={data.topPeriod} />
        <TopList testId="dashboard-top-margin" title={t('dashboard.top.byMargin')} rows={data.topByMargin} figure="profit" period={data.topPeriod} />
      </div>

      <Overdue rows={data.receivables.mostOverdue} />
    </>
  );
}

function FigureCard({ name, today, yesterday }: { name: CardKey; today: string; yesterday: string }) {
  const { t } = useTranslation('reports');
  const { diff, trend } = compare(today, yesterday);
  const tone = trend === 'same' ? 'same' : (trend === 'up') === riseIsGood(name) ? 'good' : 'bad';
  return (
    <div className="bk-stat db-card" data-testid={`card-${name}`}>
      <span className="bk-stat__label">{t(`dashboard.cards.${name}`)}</span>
      <span className="bk-stat__value db-card__today" data-testid={`card-${name}-today`}>
        {formatINR(today)}
      </span>
      <span className="db-card__yesterday" data-testid={`card-${name}-yesterday`}>
        {t('dashboard.cards.yesterday', { amount: formatINR(yesterday) })}
      </span>
      <span className={`db-delta db-delta--${tone}`} data-testid={`card-${name}-delta`}>
        <span aria-hidden="true">{trend === 'up' ? '▲ ' : trend === 'down' ? '▼ ' : ''}</span>
        {t(`dashboard.cards.${trend}`, { amount: formatINR(diff) })}
      </span>
    </div>
  );
}

function LowStock({ count }: { count: number }) {
  const { t } = useTranslation('reports');
  return (
    <p className={`db-low${count > 0 ? ' db-low--warn' : ''}`} data-testid="dashboard-low-stock">
      <span>{t('dashboard.lowStock.count', { count })}</span>
      {count > 0 && (
        <Link to="/reorderList" className="db-low__link" data-testid="dashboard-low-stock-link">
          {t('dashboard.lowStock.open')}
        </Link>
      )}
    </p>
  );
}

function Receivables({ data }: { data: DashboardReply }) {
  const { t } = useTranslation('reports');
  const { buckets, total } = data.receivables;
  return (
    <section className="bk-card db-panel" data-testid="dashboard-receivables">
      <h2 className="db-panel__title">{t('dashboard.receivables.title')}</h2>
      <p className="db-total">
        {t('dashboard.receivables.total')} <strong data-testid="dashboard-receivables-total">{formatINR(total)}</strong>
      </p>
      <Chart
        kind="bar"
        testId="dashboard-ageing"
        title={t('dashboard.receivables.title')}
        categoryLabel={t('dashboard.receivables.age')}
        categories={BUCKET_KEYS.map((b) => t(`dashboard.receivables.${b}`))}
        series={[{ name: t('dashboard.receivables.due'), data: BUCKET_KEYS.map((b) => buckets[b]) }]}
        colors={['#b42318']}
        height={200}
      />
      <ul className="db-buckets" data-testid="dashboard-buckets">
        {BUCKET_KEYS.map((b) => (
          <li key={b}>
            <span>{t(`dashboard.receivables.${b}`)}</span>
            <span className="db-num">{formatINR(buckets[b])}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function TopList({
  testId,
  title,
  rows,
  figure,
  period,
}: {
  testId: string;
  title: string;
  rows: TopProduct[];
  figure: 'value' | 'profit';
  period: { from: string; to: string };
}) {
  const { t } = useTranslation('reports');
  const figures = rows.map((r) => r[figure]);
  return (
    <section className="bk-card db-panel" data-testid={testId}>
      <h2 className="db-panel__title">{title}</h2>
      <p className="bk-muted db-period">{t('dashboard.top.period', { from: formatDate(period.from), to: formatDate(period.to) })}</p>
      {rows.length === 0 ? (
        <p className="db-empty">{t('dashboard.top.empty')}</p>
      ) : (
        <div className="bk-table-wrap">
          <table className="bk-table db-top">
            <thead>
              <tr>
                <th scope="col">{t('dashboard.top.product')}</th>
                <th scope="col" className="db-num">
                  {figure === 'value' ? t('dashboard.top.value') : t('dashboard.top.margin')}
                </th>
                <th scope="col" className="db-num">
                  {t('dashboard.top.marginPct')}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.productId} data-testid={`${testId}-${r.productId}`}>
                  <th scope="row" className="db-top__name" title={r.name}>
                    {r.name}
                  </th>
                  <td className="db-num db-top__figure">
                    {formatINR(r[figure])}
                    <span className="db-bar" aria-hidden="true">
                      <span style={{ width: `${barWidth(r[figure], figures)}%` }} />
                    </span>
                  </td>
                  <td className="db-num">{r.marginPct === null ? t('dashboard.top.noCost') : `${r.marginPct.toFixed(1)}%`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Overdue({ rows }: { rows: OverdueParty[] }) {
  const { t } = useTranslation('reports');
  const alert = useAlert();
  const [opening, setOpening] = useState<number | null>(null);
  const statement = async (id: number) => {
    setOpening(id);
    try {
      await openDocument(`/documents/statement/${id}`, { newTab: true });
    } catch {
      alert.error(t('dashboard.overdue.statementFailed'));
    } finally {
      setOpening(null);
    }
  };
  return (
    <section className="bk-card db-panel" data-testid="dashboard-overdue">
      <h2 className="db-panel__title">{t('dashboard.overdue.title')}</h2>
      {rows.length === 0 ? (
        <p className="db-empty">{t('dashboard.overdue.empty')}</p>
      ) : (
        <div className="bk-table-wrap">
          <table className="bk-table db-overdue">
            <thead>
              <tr>
                <th scope="col">{t('dashboard.overdue.customer')}</th>
                <th scope="col" className="db-num">
                  {t('dashboard.overdue.balance')}
                </th>
                <th scope="col" className="db-hide-phone">
                  {t('dashboard.overdue.oldest')}
                </th>
                <th scope="col" className="db-num db-hide-phone">
                  {t('dashboard.overdue.days')}
                </th>
                <th scope="col">
                  <span className="bk-sr-only">{t('dashboard.overdue.statement')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.partyId} data-testid={`overdue-${r.partyId}`}>
                  <th scope="row">
                    <Link to={`/clientList/transaction/${r.partyId}`}>{r.name || t('dashboard.overdue.unnamed', { id: r.partyId })}</Link>
                  </th>
                  <td className="db-num">{formatINR(r.balance)}</td>
                  <td className="db-hide-phone">{formatDate(r.oldestDue)}</td>
                  <td className={`db-num db-hide-phone${r.daysOverdue > 0 ? ' db-late' : ''}`}>{r.daysOverdue}</td>
                  <td className="db-actions">
                    <Button
                      variant="secondary"
                      busy={opening === r.partyId}
                      onClick={() => void statement(r.partyId)}
                      aria-label={t('dashboard.overdue.statementOf', { name: r.name || t('dashboard.overdue.unnamed', { id: r.partyId }) })}
                    >
                      {t('dashboard.overdue.statement')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
