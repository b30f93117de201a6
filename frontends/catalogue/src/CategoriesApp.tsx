import './i18n';
import { useEffect, useState } from 'react';
import { Route, Routes, useNavigate, useParams } from 'react-router-dom';
import { translateServerMessage, useTranslation } from '@bahi/i18n';
import { Button, Card, Field, FormActions, FormGrid, PagedTable, SelectField, Spinner, api, errorMessage, useAlert, useConfirm } from '@bahi/ui-kit';
import { CONNECT_FAILED, type Named, type Spec } from './shared';
import './catalogue.css';

interface CatRow extends Record<string, unknown> {
  id: number;
  name: string;
  belongs_to_name: string;
}

function CategoryList() {
  const navigate = useNavigate();
  const { t } = useTranslation('catalogue');
  return (
    <>
      <div className="bk-page-title">
        <h1>{t('categories.title')}</h1>
        <Button onClick={() => navigate('/productsCatagory/add')}>{t('categories.add')}</Button>
      </div>
      <PagedTable<CatRow>
        title={t('categories.title')}
        pageBase={0}
        rowUrl="/productsCatagory"
        load={async (pageNo, signal) => {
          const r = await api.get<{ categoryList: CatRow[]; noOfPages: number }>('/getCategoryList', { query: { pageNo }, signal });
          return { rows: r.categoryList, noOfPages: r.noOfPages };
        }}
        columns={[
          { key: 'name', header: t('common.name') },
          { key: 'belongs_to_name', header: t('categories.belongsTo'), render: (r) => r.belongs_to_name || '—' },
        ]}
        emptyText={t('categories.empty')}
        testId="category-list"
      />
    </>
  );
}

function CategoryAdd() {
  const navigate = useNavigate();
  const alert = useAlert();
  const { t } = useTranslation('catalogue');
  const [cats, setCats] = useState<Named[]>([]);
  const [name, setName] = useState('');
  const [parent, setParent] = useState('');
  const [specs, setSpecs] = useState<{ name: string; def: string; num: boolean }[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api.get<{ categoryList: Named[] }>('/getCategoryList').then((r) => setCats(r.categoryList), () => alert.error(CONNECT_FAILED()));
  }, []);
  const upd = (i: number, patch: Partial<(typeof specs)[number]>) => setSpecs((s) => s.map((x, j) => (j === i ? { ...x, ...patch } : x)));

  return (
    <>
      <div className="bk-page-title">
        <h1>{t('categories.add')}</h1>
      </div>
      <Card>
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            if (!name.trim()) return alert.error(t('categories.nameRequired'));
            const missing = specs.findIndex((s) => !s.name.trim() || !s.def.trim());
            if (missing >= 0) return alert.error(t('categories.specRequired', { n: missing + 1 }));
            const body: Record<string, unknown> = { name, belongs_to: parent || null };
            specs.forEach((s, i) => {
              body[`spec_${i + 1}`] = s.name;
              body[`default_${i + 1}`] = s.def;
              body[`is_number_${i + 1}`] = s.num;
            });
            setBusy(true);
            try {
              const r = await api.post<{ id: number; message: string }>('/catagory/add', body);
              alert.success(translateServerMessage(r.message));
              navigate(`/productsCatagory/${r.id}`);
            } catch (err) {
              alert.error(errorMessage(err));
            } finally {
              setBusy(false);
            }
          }}
        >
          <FormGrid>
            <Field label={t('common.name')} required value={name} onChange={(e) => setName(e.target.value)} />
            <SelectField label={t('categories.belongsTo')} value={parent} onChange={(e) => setParent(e.target.value)}>
              <option value="">{t('categories.topLevel')}</option>
              {cats.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </SelectField>
          </FormGrid>
          <h3>{t('categories.specs')}</h3>
          {specs.map((s, i) => (
            <div className="ct-specs" key={i}>
              <Field label={t('categories.specName', { n: i + 1 })} required value={s.name} onChange={(e) => upd(i, { name: e.target.value })} />
              <Field label={t('common.default')} required value={s.def} onChange={(e) => upd(i, { def: e.target.value })} />
              <label className="ct-check">
                <input type="checkbox" checked={s.num} onChange={(e) => upd(i, { num: e.target.checked })} /> {t('common.number')}
              </label>
              <Button variant="ghost" aria-label={t('categories.removeSpec', { n: i + 1 })} onClick={() => setSpecs((x) => x.filter((_, j) => j !== i))}>
                {t('categories.remove')}
              </Button>
            </div>
          ))}
          <Button variant="secondary" onClick={() => setSpecs((s) => [...s, { name: '', def: '', num: false }])}>
            {t('categories.addSpec')}
          </Button>
          <FormActions>
            <Button variant="ghost" onClick={() => navigate('/productsCatagory')}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" busy={busy}>
              {t('categories.saveCategory')}
            </Button>
          </FormActions>
        </form>
      </Card>
    </>
  );
}

interface CatView {
  category: Record<string, string | number | null> & { id: number; name: string; belongs_to_name: string; products: number };
  category_specs: Spec[];
}

function CategoryView() {
  const { id } = useParams();
  const navigate = useNavigate();
  const alert = useAlert();
  const confirm = useConfirm();
  const { t } = useTranslation('catalogue');
  const [v, setV] = useState<CatView | null>(null);
  useEffect(() => {
    api.get<CatView>(`/editCatagory/${id}`).then(setV, () => alert.error(CONNECT_FAILED()));
  }, [id]);
  if (!v) return <Spinner />;
  const c = v.category;
  return (
    <>
      <div className="bk-page-title">
        <h1>{c.name}</h1>
        <div className="ct-row-actions">
          <Button variant="secondary" onClick={() => navigate(`/productsCatagory/${c.id}/labelEdit`)}>
            {t('categories.editLabel')}
          </Button>
          <Button
            variant="danger"
            onClick={async () => {
              if (!(await confirm({ message: t('categories.deleteConfirm', { name: c.name }), confirmLabel: t('common.delete'), danger: true }))) return;
              try {
                const r = await api.delete<{ success: boolean; message: string }>(`/deleteCatagory/${c.id}`);
                if (!r.success) throw new Error();
                alert.success(translateServerMessage(r.message));
                navigate('/productsCatagory');
              } catch (err) {
                const detail = errorMessage(err, '');
                alert.error(detail ? t('categories.cannotDeleteWith', { detail }) : t('categories.cannotDelete'));
              }
            }}
          >
            {t('common.delete')}
          </Button>
        </div>
      </div>
      <Card title={t('categories.category')}>
        <dl className="ct-dl">
          <dt>{t('categories.belongsTo')}</dt>
          <dd>{c.belongs_to_name || '—'}</dd>
          <dt>{t('categories.products')}</dt>
          <dd>{c.products}</dd>
          <dt>{t('categories.labelFeatures')}</dt>
          <dd>
            {[1, 2, 3]
              .map((i) => c[`label_feature_${i}`] && t('categories.printsAs', { feature: String(c[`label_feature_${i}`]), alias: String(c[`label_feature_alias_${i}`] ?? '') }))
              .filter(Boolean)
              .join(', ') || '—'}
          </dd>
        </dl>
      </Card>
      <div style={{ marginTop: 16 }}>
        <Card title={t('categories.specs')}>
          <div className="bk-table-wrap">
            <table className="bk-table" data-testid="category-specs">
              <thead>
                <tr>
                  <th>{t('common.name')}</th>
                  <th>{t('common.default')}</th>
                  <th>{t('common.number')}</th>
                  <th>{t('categories.labelOrder')}</th>
                </tr>
              </thead>
              <tbody>
                {v.category_specs.length === 0 && (
                  <tr>
                    <td colSpan={4} className="bk-table__empty">
                      {t('categories.noSpecs')}
                    </td>
                  </tr>
                )}
                {v.category_specs.map((s) => (
                  <tr key={s.field_name}>
                    <td>{s.field_name}</td>
                    <td>{s.default_value}</td>
                    <td>{s.is_number ? t('common.yes') : t('common.no')}</td>
                    <td>{s.priority || '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      </div>
    </>
  );
}

function LabelEdit() {
  const { id } = useParams();
  const navigate = useNavigate();
  const alert = useAlert();
  const { t } = useTranslation('catalogue');
  const [v, setV] = useState<CatView | null>(null);
  const [f, setF] = useState<Record<string, string>>({});
  useEffect(() => {
    api.get<CatView>(`/editCatagory/${id}`).then(
      (r) => {
        setV(r);
        setF(Object.fromEntries([1, 2, 3].flatMap((i) => [[`label_feature_${i}`, String(r.category[`label_feature_${i}`] ?? '')], [`label_feature_alias_${i}`, String(r.category[`label_feature_alias_${i}`] ?? '')]])));
      },
      () => alert.error(CONNECT_FAILED()),
    );
  }, [id]);
  if (!v) return <Spinner />;
  return (
    <>
      <div className="bk-page-title">
        <h1>{t('categories.labelTitle', { name: v.category.name })}</h1>
      </div>
      <Card>
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            try {
              const r = await api.put<{ success: boolean; msg: string }>(`/editCatagory/${id}/editLabel`, f);
              alert.success(translateServerMessage(r.msg));
              navigate(`/productsCatagory/${id}`);
            } catch (err) {
              alert.error(errorMessage(err));
            }
          }}
        >
          {[1, 2, 3].map((i) => (
            <FormGrid key={i}>
              <SelectField label={t('categories.feature', { n: i })} value={f[`label_feature_${i}`] ?? ''} onChange={(e) => setF((x) => ({ ...x, [`label_feature_${i}`]: e.target.value }))}>
                <option value="">{t('categories.none')}</option>
                {v.category_specs.map((s) => (
                  <option key={s.field_name}>{s.field_name}</option>
                ))}
              </SelectField>
              <Field label={t('categories.printFeatureAs', { n: i })} value={f[`label_feature_alias_${i}`] ?? ''} onChange={(e) => setF((x) => ({ ...x, [`label_feature_alias_${i}`]: e.target.value }))} />
            </FormGrid>
          ))}
          <FormActions>
            <Button variant="ghost" onClick={() => navigate(`/productsCatagory/${id}`)}>
              {t('common.cancel')}
            </Button>
            <Button type="submit">{t('common.save')}</Button>
          </FormActions>
        </form>
      </Card>
    </>
  );
}

/** Mounted by the shell at /productsCatagory/*. */
export default function CategoriesApp() {
  return (
    <Routes>
      <Route index element={<CategoryList />} />
      <Route path="add" element={<CategoryAdd />} />
      <Route path=":id" element={<CategoryView />} />
      <Route path=":id/labelEdit" element={<LabelEdit />} />
    </Routes>
  );
}
