/**
 * Chromium rounds a PDF page to whole points before it writes it (58 mm = 164.41 pt comes out as
 * 163.92 pt, 80 mm = 226.77 pt as 227.04 pt). A roll's width matters to the printer's driver, so the
 * MediaBox width is rewritten to the exact one; the number is written in as many characters as
 * Chromium's (e.g. `163.919998` -> `164.409449`), so no byte offset of the file moves. Content keeps
 * its place (the box's origin is unchanged); a MediaBox that cannot be matched is left as it is.
 */
export function exactPageWidth(pdf: Buffer, widthMm: number): Buffer {
  const exact = (widthMm * 72) / 25.4;
  const text = pdf.toString('latin1');
  let changed = false;
  const out = text.replace(/\/MediaBox \[0 0 (\d+(?:\.\d+)?) /g, (whole, w: string) => {
    const intLen = String(Math.trunc(exact)).length;
    const decimals = w.length - intLen - 1;
    const repl = decimals > 0 ? exact.toFixed(decimals) : String(Math.round(exact));
    if (repl.length !== w.length || Math.abs(Number(w) - exact) > 2) return whole;
    changed = true;
    return `/MediaBox [0 0 ${repl} `;
  });
  return changed ? Buffer.from(out, 'latin1') : pdf;
}
