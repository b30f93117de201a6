// What a longer script (Devanagari) breaks in a layout, measured in the page: the screens' own
// tests name which boxes and which texts to measure.
import type { Page } from 'playwright-core';

export interface LayoutCheck {
  /** Boxes (cards, dialogs) whose content must not be wider than they are. */
  boxes?: string;
  /** Texts that must not be cut off by their box (overflow hidden or an ellipsis). */
  texts: string;
  /** Where to look (default the whole document). */
  within?: string;
  /** Wrappers that may scroll sideways (a wide table inside its scrolling wrapper is fine). */
  scrolling?: string;
  /** Buttons whose label must stay on one line. */
  oneLine?: string;
}

/** Every problem as a sentence naming the element and its text; an empty list is a clean layout. */
export function layoutProblems(page: Page, check: LayoutCheck): Promise<string[]> {
  return page.evaluate((c) => {
    const out: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth + 1) out.push(`page scrolls sideways: ${doc.scrollWidth} > ${doc.clientWidth}`);
    const root = (c.within && document.querySelector(c.within)) || document;
    const name = (el: HTMLElement) => `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    if (c.boxes)
      for (const el of Array.from(root.querySelectorAll<HTMLElement>(c.boxes)))
        if (el.scrollWidth > el.clientWidth + 1) out.push(`${name(el)} ${el.scrollWidth} > ${el.clientWidth}`);
    for (const el of Array.from(root.querySelectorAll<HTMLElement>(c.texts))) {
      if (!el.offsetParent || !(el.textContent ?? '').trim()) continue;
      if (c.scrolling && el.closest(c.scrolling)) continue;
      const s = getComputedStyle(el);
      const hidesX = s.overflowX !== 'visible' || s.textOverflow === 'ellipsis';
      const hidesY = s.overflowY !== 'visible';
      if (hidesX && el.scrollWidth > el.clientWidth + 1) out.push(`cut off: ${name(el)} width ${el.scrollWidth} > ${el.clientWidth}`);
      if (hidesY && el.scrollHeight > el.clientHeight + 1) out.push(`cut off: ${name(el)} height ${el.scrollHeight} > ${el.clientHeight}`);
      if (c.oneLine && el.matches(c.oneLine)) {
        const line = parseFloat(s.lineHeight) || parseFloat(s.fontSize) * 1.5;
        const inner = el.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom);
        if (inner > line * 1.6) out.push(`wraps: ${name(el)}`);
      }
    }
    return out;
  }, check);
}
