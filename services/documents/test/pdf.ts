import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsQR from 'jsqr';
import { PDFDocument } from 'pdf-lib';
import { PNG } from 'pngjs';
import { BARS } from 'jsbarcode/bin/barcodes/CODE128/constants';

const PT_PER_MM = 72 / 25.4;

/** Page sizes in whole millimetres. */
export async function pageSizesMm(pdf: Buffer): Promise<{ w: number; h: number }[]> {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().map((p) => ({ w: Math.round(p.getWidth() / PT_PER_MM), h: Math.round(p.getHeight() / PT_PER_MM) }));
}

function withTemp<T>(pdf: Buffer, fn: (dir: string, file: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'bahi-doc-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    return fn(dir, file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Text of the PDF (poppler's pdftotext, layout kept), pages separated by form feeds. */
export function pdfText(pdf: Buffer): string {
  return withTemp(pdf, (_dir, file) => execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }));
}

/** Text in content order (pdftotext -raw): rotated text, such as a watermark, comes out whole. */
export function pdfRawText(pdf: Buffer): string {
  return withTemp(pdf, (_dir, file) => execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }));
}

/** The fonts embedded in the PDF (poppler's pdffonts). */
export function pdfFonts(pdf: Buffer): string {
  return withTemp(pdf, (_dir, file) => execFileSync('pdffonts', [file], { encoding: 'utf8' }));
}

/** One page (or a region of it, in mm) rasterised by pdftoppm and decoded into RGBA pixels. */
export function rasterPage(pdf: Buffer, page = 1, dpi = 200, mm?: { x: number; y: number; w: number; h: number }): PNG {
  const px = (v: number) => String(Math.round((v / 25.4) * dpi));
  const region = mm ? ['-x', px(mm.x), '-y', px(mm.y), '-W', px(mm.w), '-H', px(mm.h)] : [];
  return withTemp(pdf, (dir, file) => {
    execFileSync('pdftoppm', ['-r', String(dpi), '-f', String(page), '-l', String(page), ...region, '-png', file, join(dir, 'p')]);
    const png = readdirSync(dir).find((f) => f.endsWith('.png'))!;
    return PNG.sync.read(readFileSync(join(dir, png)));
  });
}

/** Decodes the QR code in an image (jsQR), or null. */
export function decodeQr(png: PNG): string | null {
  return jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height)?.data ?? null;
}

/**
 * Decodes a CODE128 barcode from one pixel row of an image: dark/light runs -> module widths
 * -> symbols of jsbarcode's BARS table -> text (code sets B and C, which is what it emits).
 */
export function decodeCode128Row(png: PNG, y: number): string | null {
  const dark: boolean[] = [];
  for (let x = 0; x < png.width; x++) {
    const i = (y * png.width + x) * 4;
    dark.push(png.data[i]! + png.data[i + 1]! + png.data[i + 2]! < 384);
  }
  const runs: number[] = [];
  const first = dark.indexOf(true);
  if (first < 0) return null;
  let last = dark.lastIndexOf(true);
  let cur = dark[first]!;
  let len = 0;
  for (let x = first; x <= last; x++) {
    if (dark[x] === cur) len++;
    else {
      runs.push(len);
      cur = dark[x]!;
      len = 1;
    }
  }
  runs.push(len);
  // symbols of 6 elements (11 modules) plus the stop of 7 elements (13 modules)
  if ((runs.length - 7) % 6 !== 0) return null;
  const symbols = (runs.length - 7) / 6;
  const totalPx = runs.reduce((a, b) => a + b, 0);
  const module = totalPx / (symbols * 11 + 13);
  const table = new Map(BARS.map((b: number, i: number) => [String(b), i]));
  const values: number[] = [];
  for (let s = 0; s < symbols; s++) {
    let bits = '';
    runs.slice(s * 6, s * 6 + 6).forEach((w, k) => (bits += (k % 2 ? '0' : '1').repeat(Math.max(1, Math.round(w / module)))));
    const v = table.get(bits);
    if (v === undefined) return null;
    values.push(v);
  }
  const [start, ...rest] = values;
  const data = rest.slice(0, -1);
  const check = rest[rest.length - 1];
  const sum = data.reduce((acc, v, i) => acc + v * (i + 1), start!);
  if (sum % 103 !== check) return null;
  let set = start === 105 ? 'C' : start === 104 ? 'B' : 'A';
  let out = '';
  for (const v of data) {
    if (v === 99) set = 'C';
    else if (v === 100 && set !== 'B') set = 'B';
    else if (v === 101 && set !== 'A') set = 'A';
    else if (set === 'C') out += String(v).padStart(2, '0');
    else if (set === 'B') out += String.fromCharCode(v + 32);
    else out += String.fromCharCode(v < 64 ? v + 32 : v - 64);
  }
  return out;
}

/** Tries the rows of a region until one decodes. */
export function decodeCode128(png: PNG): string | null {
  for (let y = Math.floor(png.height * 0.2); y < png.height * 0.9; y += 2) {
    const v = decodeCode128Row(png, y);
    if (v) return v;
  }
  return null;
}
