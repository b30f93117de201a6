import type { ReactNode } from 'react';
import { Card, formatINR } from '@bahi/ui-kit';
import { useTranslation } from '@bahi/i18n';
import { TotalsTable, type Column } from '../TotalsTable';
import { formatQty, formatRate, invoiceRows, noteRows, posLabel, sum, taxOf, type CsvSection, type Gstr1, type Gstr1Hsn, type Gstr1Nil } from '../rules';

const inr = (v: number | undefined) => formatINR(v ?? 0);

/** A GSTR table: a totals row only when it has rows and a column with a total. */
function SectionTable<R>({ testId, columns, rows, empty }: { testId: string; columns: Column<R>[]; rows: R[]; empty: string }) {
  const { t } = useTranslation('reports');
  const showTotals = rows.length > 0 && columns.some((c) => c.total !== undefined);
  return <TotalsTable testId={testId} columns={columns} rows={rows} empty={empty} totalLabel={t('gst.total')} showTotals={showTotals} />;
}

/** Table 12's columns, for its B2B and its B2C half. */
function hsnColumns(t: (k: string) => string, rows: Gstr1Hsn[]): Column<Gstr1Hsn>[] {
  return [
    { label: t('gst.cols.hsn'), cell: (x) => <span className="rp-code">{x.hsn_sc}</span> },
    { label: t('gst.cols.description'), cell: (x) => <span className="rp-desc">{x.desc ?? ''}</span> },
    { label: t('gst.cols.uqc'), cell: (x) => x.uqc },
    { label: t('gst.cols.quantity'), num: true, cell: (x) => formatQty(x.qty) },
    { label: t('gst.cols.rate'), num: true, cell: (x) => formatRate(x.rt) },
    { label: t('gst.cols.taxable'), num: true, cell: (x) => inr(x.txval), total: inr(sum(rows.map((x) => x.txval))) },
    { label: t('gst.cols.igst'), num: true, cell: (x) => inr(x.iamt), total: inr(sum(rows.map((x) => x.iamt))) },
    { label: t('gst.cols.cgst'), num: true, cell: (x) => inr(x.camt), total: inr(sum(rows.map((x) => x.camt))) },
    { label: t('gst.cols.sgst'), num: true, cell: (x) => inr(x.samt), total: inr(sum(rows.map((x) => x.samt))) },
    {
      label: t('gst.cols.totalValue'),
      num: true,
      cell: (x) => inr(sum([x.txval, taxOf(x)])),
      total: inr(sum(rows.map((x) => sum([x.txval, taxOf(x)])))),
    },
  ];
}

/**
 * Every section the GSTR-1 export holds, each by its name with its CSV: B2B, B2C large, B2C small,
 * credit/debit notes to registered and to unregistered buyers, nil rated / exempted / non-GST,
 * the HSN summary's B2B and B2C halves and the documents issued with their type names. A section
 * the month has nothing in says so (the file leaves it out).
 */
export function Gstr1Sections({ r, csvButton }: { r: Gstr1; csvButton: (s: CsvSection) => ReactNode }) {
  const { t } = useTranslation('reports');
  const b2b = invoiceRows(r.b2b);
  const b2cl = invoiceRows(r.b2cl);
  const b2cs = r.b2cs ?? [];
  const cdnr = noteRows(r.cdnr, undefined);
  const cdnur = noteRows(undefined, r.cdnur);
  const nil = r.nil?.inv ?? [];
  const hsnB2b = r.hsn?.hsn_b2b ?? [];
  const hsnB2c = r.hsn?.hsn_b2c ?? [];
  const docs = (r.doc_issue?.doc_det ?? []).flatMap((d) => d.docs.map((doc) => ({ ...doc, doc_num: d.doc_num, doc_typ: d.doc_typ })));
  const noteType = (n: { ntty: 'C' | 'D' }) => (n.ntty === 'D' ? t('gst.debitNote') : t('gst.creditNote'));
  const nilKind = (x: Gstr1Nil) => t(`gst.nilKinds.${x.sply_ty}`);
  return (
    <>
      <Card title={t('gst.b2b', { count: b2b.length })} actions={csvButton('b2b')}>
        <SectionTable
          testId="gst-b2b"
          rows={b2b}
          empty={t('gst.b2bEmpty')}
          columns={[
            { label: t('gst.cols.customerGstin'), cell: (x) => <span className="rp-code">{x.ctin}</span> },
            { label: t('gst.cols.invoiceNo'), cell: (x) => x.inum },
            { label: t('gst.cols.date'), cell: (x) => x.idt },
            { label: t('gst.cols.pos'), cell: (x) => posLabel(x.pos) },
            { label: t('gst.cols.invoiceValue'), num: true, cell: (x) => inr(x.val), total: inr(sum(b2b.map((x) => x.val))) },
            { label: t('gst.cols.taxable'), num: true, cell: (x) => inr(x.txval), total: inr(sum(b2b.map((x) => x.txval))) },
            { label: t('gst.cols.tax'), num: true, cell: (x) => inr(x.tax), total: inr(sum(b2b.map((x) => x.tax))) },
          ]}
        />
      </Card>

      <Card title={t('gst.b2cl', { count: b2cl.length })} actions={csvButton('b2cl')}>
        <SectionTable
          testId="gst-b2cl"
          rows={b2cl}
          empty={t('gst.b2clEmpty')}
          columns={[
            { label: t('gst.cols.invoiceNo'), cell: (x) => x.inum },
            { label: t('gst.cols.date'), cell: (x) => x.idt },
            { label: t('gst.cols.pos'), cell: (x) => posLabel(x.pos) },
            { label: t('gst.cols.invoiceValue'), num: true, cell: (x) => inr(x.val), total: inr(sum(b2cl.map((x) => x.val))) },
            { label: t('gst.cols.taxable'), num: true, cell: (x) => inr(x.txval), total: inr(sum(b2cl.map((x) => x.txval))) },
            { label: t('gst.cols.igst'), num: true, cell: (x) => inr(x.iamt), total: inr(sum(b2cl.map((x) => x.iamt))) },
          ]}
        />
      </Card>

      <Card title={t('gst.b2cs', { count: b2cs.length })} actions={csvButton('b2cs')}>
        <SectionTable
          testId="gst-b2cs"
          rows={b2cs}
          empty={t('gst.b2csEmpty')}
          columns={[
            { label: t('gst.cols.supply'), cell: (x) => (x.sply_ty === 'INTER' ? t('gst.inter') : t('gst.intra')) },
            { label: t('gst.cols.pos'), cell: (x) => posLabel(x.pos) },
            { label: t('gst.cols.rate'), num: true, cell: (x) => formatRate(x.rt) },
            { label: t('gst.cols.taxable'), num: true, cell: (x) => inr(x.txval), total: inr(sum(b2cs.map((x) => x.txval))) },
            { label: t('gst.cols.igst'), num: true, cell: (x) => inr(x.iamt), total: inr(sum(b2cs.map((x) => x.iamt))) },
            { label: t('gst.cols.cgst'), num: true, cell: (x) => inr(x.camt), total: inr(sum(b2cs.map((x) => x.camt))) },
            { label: t('gst.cols.sgstUtgst'), num: true, cell: (x) => inr(x.samt), total: inr(sum(b2cs.map((x) => x.samt))) },
          ]}
        />
      </Card>

      <Card title={t('gst.cdnr', { count: cdnr.length })} actions={csvButton('cdnr')}>
        <SectionTable
          testId="gst-cdnr"
          rows={cdnr}
          empty={t('gst.cdnrEmpty')}
          columns={[
            { label: t('gst.cols.customerGstin'), cell: (x) => <span className="rp-code">{x.ctin}</span> },
            { label: t('gst.cols.noteNo'), cell: (x) => x.nt_num },
            { label: t('gst.cols.date'), cell: (x) => x.nt_dt },
            { label: t('gst.cols.noteType'), cell: noteType },
            { label: t('gst.cols.pos'), cell: (x) => posLabel(x.pos) },
            { label: t('gst.cols.noteValue'), num: true, cell: (x) => inr(x.val), total: inr(sum(cdnr.map((x) => x.val))) },
            { label: t('gst.cols.taxable'), num: true, cell: (x) => inr(x.txval), total: inr(sum(cdnr.map((x) => x.txval))) },
            { label: t('gst.cols.tax'), num: true, cell: (x) => inr(x.tax), total: inr(sum(cdnr.map((x) => x.tax))) },
          ]}
        />
      </Card>

      <Card title={t('gst.cdnur', { count: cdnur.length })} actions={csvButton('cdnur')}>
        <SectionTable
          testId="gst-cdnur"
          rows={cdnur}
          empty={t('gst.cdnurEmpty')}
          columns={[
            { label: t('gst.cols.urType'), cell: (x) => x.typ ?? '' },
            { label: t('gst.cols.noteNo'), cell: (x) => x.nt_num },
            { label: t('gst.cols.date'), cell: (x) => x.nt_dt },
            { label: t('gst.cols.noteType'), cell: noteType },
            { label: t('gst.cols.pos'), cell: (x) => posLabel(x.pos) },
            { label: t('gst.cols.noteValue'), num: true, cell: (x) => inr(x.val), total: inr(sum(cdnur.map((x) => x.val))) },
            { label: t('gst.cols.taxable'), num: true, cell: (x) => inr(x.txval), total: inr(sum(cdnur.map((x) => x.txval))) },
            { label: t('gst.cols.tax'), num: true, cell: (x) => inr(x.tax), total: inr(sum(cdnur.map((x) => x.tax))) },
          ]}
        />
      </Card>

      <Card title={t('gst.nil', { count: nil.length })} actions={csvButton('exemp')}>
        <SectionTable
          testId="gst-nil"
          rows={nil}
          empty={t('gst.nilEmpty')}
          columns={[
            { label: t('gst.cols.supply'), cell: nilKind },
            { label: t('gst.cols.nilRated'), num: true, cell: (x) => inr(x.nil_amt), total: inr(sum(nil.map((x) => x.nil_amt))) },
            { label: t('gst.cols.exempted'), num: true, cell: (x) => inr(x.expt_amt), total: inr(sum(nil.map((x) => x.expt_amt))) },
            { label: t('gst.cols.nonGst'), num: true, cell: (x) => inr(x.ngsup_amt), total: inr(sum(nil.map((x) => x.ngsup_amt))) },
          ]}
        />
      </Card>

      <Card title={t('gst.hsnB2b', { count: hsnB2b.length })} actions={csvButton('hsn_b2b')}>
        <SectionTable testId="gst-hsn-b2b" rows={hsnB2b} empty={t('gst.hsnB2bEmpty')} columns={hsnColumns(t, hsnB2b)} />
      </Card>

      <Card title={t('gst.hsnB2c', { count: hsnB2c.length })} actions={csvButton('hsn_b2c')}>
        <SectionTable testId="gst-hsn-b2c" rows={hsnB2c} empty={t('gst.hsnB2cEmpty')} columns={hsnColumns(t, hsnB2c)} />
      </Card>

      <Card title={t('gst.docs')} actions={csvButton('docs')}>
        <SectionTable
          testId="gst-docs"
          rows={docs}
          empty={t('gst.docsEmpty')}
          columns={[
            // The offline tool's own name of the nature (Table 13), as the file carries it.
            { label: t('gst.cols.nature'), cell: (x) => x.doc_typ ?? t('gst.docType', { n: x.doc_num }) },
            { label: t('gst.cols.from'), cell: (x) => x.from },
            { label: t('gst.cols.to'), cell: (x) => x.to },
            { label: t('gst.cols.total'), num: true, cell: (x) => x.totnum },
            { label: t('gst.cols.cancelled'), num: true, cell: (x) => x.cancel },
            { label: t('gst.cols.netIssued'), num: true, cell: (x) => x.net_issue },
          ]}
        />
      </Card>
    </>
  );
}
