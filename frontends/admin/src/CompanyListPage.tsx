import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, PagedTable, api } from '@bahi/ui-kit';
import type { AdminCompanyRow } from '@bahi/contracts';

type CompanyRow = AdminCompanyRow & Record<string, unknown>;

export function CompanyListPage() {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const navigate = useNavigate();

  return (
    <>
      <div className="bk-page-title">
        <h1>Companies</h1>
        <Button onClick={() => navigate('/admin/createCompany')}>Add Company</Button>
      </div>
      <PagedTable<CompanyRow>
        pageBase={0}
        title={
          <form
            className="ad-search"
            role="search"
            onSubmit={(e) => {
              e.preventDefault();
              setQuery(text.trim());
            }}
          >
            <input className="bk-input" type="search" placeholder="Search companies" aria-label="Search companies" value={text} onChange={(e) => setText(e.target.value)} />
            <Button type="submit" variant="secondary">
              Search
            </Button>
          </form>
        }
        deps={[query]}
        rowUrl="/admin/company"
        load={async (pageNo, signal) => {
          const r = await api.get<{ companyList: CompanyRow[]; noOfPages: number }>('/admin/companyList', { query: { pageNo, text: query }, signal });
          return { rows: r.companyList ?? [], noOfPages: r.noOfPages };
        }}
        columns={[
          { key: 'id', header: 'ID' },
          { key: 'name', header: 'Company' },
          { key: 'manager', header: 'Manager', render: (r) => r.manager ?? '—' },
          { key: 'mob', header: 'Mobile' },
          { key: 'email', header: 'Email' },
          { key: 'users', header: 'Users', align: 'right' },
        ]}
        emptyText="No companies found."
        testId="company-list"
      />
    </>
  );
}
