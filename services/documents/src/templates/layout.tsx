import type { ReactNode } from 'react';
import { DocLanguage, useT, type Language } from '../i18n';
import type { CompanyView, PageSize } from './model';

const BASE_CSS = `
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body { font-family: 'Noto Sans', 'Noto Sans Devanagari', sans-serif; font-size: 9pt; color: #111;
  -webkit-print-color-adjust: exact; print-color-adjust: exact; }
h1 { font-size: 13pt; margin: 0; }
h2 { font-size: 11pt; margin: 0; letter-spacing: 0.5pt; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 1mm 1.5mm; text-align: left; vertical-align: top; }
th { background: #eee; font-weight: 600; border-bottom: 0.3mm solid #444; }
td { border-bottom: 0.1mm solid #ccc; }
.num { text-align: right; white-space: nowrap; }
.muted { color: #555; }
.header { display: flex; gap: 4mm; align-items: center; border-bottom: 0.4mm solid #222; padding-bottom: 2mm; }
.header img.logo { height: 16mm; max-width: 30mm; object-fit: contain; }
.header .who { flex: 1; }
.header .doc { text-align: right; }
.qr svg, svg.qr { width: 100%; height: 100%; }
`;

/**
 * A whole HTML document with the print page size; `css` adds the document's own rules. `lang`
 * (default 'en') is the language of its labels, given to every part through useT().
 */
export function Html(props: { title: string; size: PageSize; margin?: string; css?: string; lang?: Language; children: ReactNode }) {
  const page = `@page { size: ${props.size.widthMm}mm ${props.size.heightMm}mm; margin: ${props.margin ?? '8mm'}; }`;
  const lang = props.lang ?? 'en';
  return (
    <DocLanguage lang={lang}>
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <title>{props.title}</title>
        <style dangerouslySetInnerHTML={{ __html: page + BASE_CSS + (props.css ?? '') }} />
      </head>
      <body>{props.children}</body>
    </html>
    </DocLanguage>
  );
}

/** The company block every document starts with; `right` holds the document's title and number. */
export function CompanyHeader(props: { company: CompanyView; right: ReactNode }) {
  const c = props.company;
  const t = useT();
  const phones = [c.mob1, c.mob2].filter(Boolean).join(', ');
  return (
    <div className="header">
      {c.logo ? <img className="logo" src={c.logo} alt="" /> : null}
      <div className="who">
        <h1>{c.name}</h1>
        <div>{[c.add1, c.add2].filter(Boolean).join(', ')}</div>
        <div className="muted">
          {phones ? t('common.mob', { phones }) : ''}
          {phones && c.email ? ' · ' : ''}
          {c.email}
        </div>
      </div>
      <div className="doc">{props.right}</div>
    </div>
  );
}

/** Inline SVG markup made on the server (barcodes, QR codes). */
export function Svg(props: { markup: string; className?: string }) {
  return <div className={props.className} dangerouslySetInnerHTML={{ __html: props.markup }} />;
}
