import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { Button, PagedTable, api } from '@bahi/ui-kit';
import type { AdminCompanyRow } from '@bahi/contracts';

type CompanyRow = AdminCompanyRow & Record<string, unknown>;

export function CompanyListPage() {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const navigate = useNavigate();
  const { t } = useTranslation('admin');

  return (
    <>
      <div className="bk-page-title">
        <h1>{t('list.title')}</h1>
        <Button onClick={() => navigate('/admin/createCompany')}>{t('list.add')}</Button>
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
            <input className="bk-input" type="search" placeholder={t('list.search')} aria-label={t('list.search')} value={text} onChange={(e) => setText(e.target.value)} />
            <Button type="submit" variant="secondary">
              {t('list.searchButton')}
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
          { key: 'id', header: t('list.id') },
          { key: 'name', header: t('list.company') },
          { key: 'manager', header: t('list.manager'), render: (r) => r.manager ?? '—' },
          { key: 'mob', header: t('list.mobile') },
          { key: 'email', header: t('list.email') },
          { key: 'users', header: t('list.users'), align: 'right' },
        ]}
        emptyText={t('list.empty')}
        testId="company-list"
      />
    </>
  );
}
