import { useState } from 'react';
import { useTranslation } from '@bahi/i18n';
import { useAlert } from './alert';
import { Button } from './controls';
import { pageFromInput, pageLabel, type PageBase } from './paging';

export interface PagerProps {
  /** Zero-based current page. */
  pageNo: number;
  noOfPages: number;
  onPage(pageNo: number): void;
  /** How pages are numbered on screen and in the go-to box (paging.ts PageBase); 1 unless told. */
  base?: PageBase;
  className?: string;
}

/** Prev, the neighbour pages, Next and the go-to box: the footer of every paged list. */
export function Pager({ pageNo, noOfPages, onPage, base = 1, className }: PagerProps) {
  const { t } = useTranslation('ui');
  const alert = useAlert();
  const [jump, setJump] = useState('');
  const label = (p: number) => pageLabel(p, base);
  const onGo = () => {
    const p = pageFromInput(jump, noOfPages, base);
    if (p === null) alert.error(t('pager.notValid'));
    else {
      setJump('');
      onPage(p);
    }
  };
  return (
    <footer className={`bk-pager ${className ?? ''}`} aria-label={t('pager.pages')} data-page-base={base}>
      <Button variant="secondary" disabled={pageNo <= 0} onClick={() => onPage(pageNo - 1)}>
        {t('pager.prev')}
      </Button>
      {pageNo > 0 && (
        <Button variant="ghost" onClick={() => onPage(pageNo - 1)}>
          {label(pageNo - 1)}
        </Button>
      )}
      <span className="bk-pager__current" aria-current="page">
        {label(pageNo)}
      </span>
      {pageNo + 1 < noOfPages && (
        <Button variant="ghost" onClick={() => onPage(pageNo + 1)}>
          {label(pageNo + 1)}
        </Button>
      )}
      <Button variant="secondary" disabled={pageNo + 1 >= noOfPages} onClick={() => onPage(pageNo + 1)}>
        {t('pager.next')}
      </Button>
      <span className="bk-pager__spacer" />
      <input
        className="bk-pager__input"
        type="number"
        min={base}
        max={Math.max(base, noOfPages - 1 + base)}
        placeholder={t('pager.pageNumber')}
        aria-label={t('pager.pageNumber')}
        value={jump}
        onChange={(e) => setJump(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && onGo()}
      />
      <Button variant="secondary" onClick={onGo}>
        {t('pager.go')}
      </Button>
      <span className="bk-pager__info">{base === 0 ? t('pager.rangeZero', { last: Math.max(0, noOfPages - 1) }) : t('pager.of', { count: noOfPages })}</span>
    </footer>
  );
}
