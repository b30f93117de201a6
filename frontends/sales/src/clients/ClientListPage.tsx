import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { Button, ExportButtons, PagedTable, api, formatINR, isManager, useAlert, useUser, type Column } from '@bahi/ui-kit';
import { CustomerSearch } from './CustomerSearch';
import { OverdueClients } from './OverdueClients';

interface Row extends Record<string, unknown> {
  id: number;
  name: string;
  mobile_no: string;
  city_or_district: string;
  due: number;
}

const columns = (t: ReturnType<typeof useTranslation>['t']): Column<Row>[] => [
  { key: 'id', header: t('clients.id') },
  { key: 'name', header: t('customerForm.name') },
  { key: 'mobile_no', header: t('customerForm.mobile') },
  { key: 'city_or_district', header: t('customerForm.city') },
  { key: 'due', header: t('summary.due'), align: 'right', render: (r) => formatINR(r.due) },
];

/** /clientList: Customer Details — search with suggestions, Add Client, the paged list (all, or ?overdue=1 the Overdue filter). */
export function ClientListPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const overdue = params.get('overdue') === '1';
  const show = (o: boolean) => setParams(o ? { overdue: '1' } : {});
  const manager = isManager(useUser());
  const alert = useAlert();
  const { t } = useTranslation('sales');
  return (
    <>
      <div className="bk-page-title">
        <h1>{t('clients.title')}</h1>
        <div className="cl-title-actions">
          {/* The export follows the filter shown: the whole list, or the overdue customers. */}
          <ExportButtons list="customers" query={overdue ? { overdue: 1 } : undefined} onError={(m) => alert.error(m)} />
          {manager && (
            <Button variant="secondary" onClick={() => navigate('/clientList/import')}>
              {t('clients.import')}
            </Button>
          )}
          <Button onClick={() => navigate('/clientList/add-client')}>{t('clients.addClient')}</Button>
        </div>
      </div>
      <div className="cl-toolbar">
        <CustomerSearch onChoose={(c) => navigate(`/clientList/transaction/${c.client_id}`)} />
        <div className="cl-filter" role="group" aria-label={t('clients.show')}>
          <button type="button" aria-pressed={!overdue} onClick={() => show(false)} data-testid="filter-all">
            {t('clients.all')}
          </button>
          <button type="button" aria-pressed={overdue} onClick={() => show(true)} data-testid="filter-overdue">
            {t('clients.overdue')}
          </button>
        </div>
      </div>
      {overdue ? (
        <OverdueClients />
      ) : (
        <PagedTable<Row>
          title={t('clients.customers')}
          testId="clients-table"
          columns={columns(t)}
          rowUrl="/clientList/transaction"
          load={async (pageNo, signal) => {
            const r = await api.get<{ clientsList: Row[]; noOfPages: number }>('/getClientsList', {
              query: { pageNo },
              signal,
            });
            return { rows: r.clientsList, noOfPages: r.noOfPages };
          }}
          emptyText={t('clients.empty')}
        />
      )}
    </>
  );
}
