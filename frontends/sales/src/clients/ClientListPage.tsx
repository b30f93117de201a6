import { useNavigate, useSearchParams } from 'react-router-dom';
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

const COLUMNS: Column<Row>[] = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'Name' },
  { key: 'mobile_no', header: 'Mobile' },
  { key: 'city_or_district', header: 'City' },
  { key: 'due', header: 'Due', align: 'right', render: (r) => formatINR(r.due) },
];

/** /clientList: Customer Details — search with suggestions, Add Client, the paged list (all, or ?overdue=1 the Overdue filter). */
export function ClientListPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const overdue = params.get('overdue') === '1';
  const show = (o: boolean) => setParams(o ? { overdue: '1' } : {});
  const manager = isManager(useUser());
  const alert = useAlert();
  return (
    <>
      <div className="bk-page-title">
        <h1>Customer Details</h1>
        <div className="cl-title-actions">
          {!overdue && <ExportButtons list="customers" onError={(m) => alert.error(m)} />}
          {manager && (
            <Button variant="secondary" onClick={() => navigate('/clientList/import')}>
              Import
            </Button>
          )}
          <Button onClick={() => navigate('/clientList/add-client')}>Add Client</Button>
        </div>
      </div>
      <div className="cl-toolbar">
        <CustomerSearch onChoose={(c) => navigate(`/clientList/transaction/${c.client_id}`)} />
        <div className="cl-filter" role="group" aria-label="Show">
          <button type="button" aria-pressed={!overdue} onClick={() => show(false)} data-testid="filter-all">
            All
          </button>
          <button type="button" aria-pressed={overdue} onClick={() => show(true)} data-testid="filter-overdue">
            Overdue
          </button>
        </div>
      </div>
      {overdue ? (
        <OverdueClients />
      ) : (
        <PagedTable<Row>
          title="Customers"
          testId="clients-table"
          columns={COLUMNS}
          rowUrl="/clientList/transaction"
          load={async (pageNo, signal) => {
            const r = await api.get<{ clientsList: Row[]; noOfPages: number }>('/getClientsList', {
              query: { pageNo },
              signal,
            });
            return { rows: r.clientsList, noOfPages: r.noOfPages };
          }}
          emptyText="No customers yet. Add one with Add Client."
        />
      )}
    </>
  );
}
