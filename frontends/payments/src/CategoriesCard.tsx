import { useState, type FormEvent } from 'react';
import { useTranslation } from '@bahi/i18n';
import { api, Button, Card, errorMessage, Field, useAlert } from '@bahi/ui-kit';
import type { ExpenseCategoriesReply } from '@bahi/contracts';

/**
 * The company's expense categories (managers): add, remove, save. A category in use cannot be
 * removed: the server refuses with a sentence saying how many expenses use it, which is shown.
 */
export function CategoriesCard({ value, onSaved }: { value: ExpenseCategoriesReply; onSaved(v: ExpenseCategoriesReply): void }) {
  const { t } = useTranslation('payments');
  const alert = useAlert();
  const [list, setList] = useState<string[]>(value.categories);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);

  const add = () => {
    const n = name.trim();
    if (n) setList([...list, n]);
    setName('');
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const r = await api.put<ExpenseCategoriesReply>('/expenses/categories', { categories: list }, { authRedirect: false });
      setList(r.categories);
      onSaved(r);
      alert.success(t('categories.saved'));
    } catch (err) {
      alert.error(errorMessage(err));
      setList(value.categories);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('categories.title')}>
      <form onSubmit={save} data-testid="expense-categories">
        <ul className="pm-cats">
          {list.map((c) => (
            <li key={c}>
              <span>{c}</span>
              {value.in_use.includes(c) ? <span className="bk-badge bk-badge--info">{t('categories.inUse')}</span> : null}
              <Button type="button" variant="ghost" aria-label={t('categories.remove', { name: c })} onClick={() => setList(list.filter((x) => x !== c))}>
                {t('categories.x')}
              </Button>
            </li>
          ))}
        </ul>
        <div className="pm-cat-add">
          <Field
            label={t('categories.new')}
            name="new_category"
            maxLength={40}
            value={name}
            onChange={(e) => setName(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
          />
          <Button type="button" variant="secondary" onClick={add}>
            {t('categories.add')}
          </Button>
        </div>
        <p className="bk-muted">{t('categories.hint')}</p>
        <div className="pm-actions">
          <Button type="submit" busy={busy}>
            {t('categories.save')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
