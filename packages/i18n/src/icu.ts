// ICU MessageFormat for i18next in about 2 kB: {name}, {n, number}, {n, plural, =0 {…} one {# …}
// other {…}} (with offset), selectordinal, select and ICU quoting; tags stay text for <Trans>
// (as i18next-icu's ignoreTag). It replaces i18next-icu + intl-messageformat (11 kB gzip) on the
// cart screen's first load; a test formats every catalogue message with both and compares.

type Part =
  | string
  | { pound: true }
  | { arg: string; type?: undefined }
  | { arg: string; type: 'number' | 'date' | 'time'; style: string }
  | { arg: string; type: 'plural' | 'selectordinal' | 'select'; offset: number; options: Record<string, Part[]> };

export class IcuSyntaxError extends Error {}

function parse(msg: string): Part[] {
  let i = 0;
  const fail = (what: string): never => {
    throw new IcuSyntaxError(`${what} at ${i} in ${JSON.stringify(msg)}`);
  };
  const ws = () => {
    while (i < msg.length && /\s/.test(msg[i])) i++;
  };
  const word = () => {
    ws();
    const start = i;
    while (i < msg.length && !/[\s,{}]/.test(msg[i])) i++;
    return msg.slice(start, i);
  };
  const message = (depth: number, inPlural: boolean): Part[] => {
    const parts: Part[] = [];
    let text = '';
    const flush = () => {
      if (text) parts.push(text);
      text = '';
    };
    while (i < msg.length) {
      const c = msg[i];
      if (c === "'") {
        const next = msg[i + 1];
        if (next === "'") {
          text += "'";
          i += 2;
        } else if (next === '{' || next === '}' || (inPlural && next === '#')) {
          // Quoted literal up to the next lone apostrophe ('' inside is one apostrophe).
          i++;
          while (i < msg.length) {
            if (msg[i] === "'" && msg[i + 1] === "'") {
              text += "'";
              i += 2;
            } else if (msg[i] === "'") {
              i++;
              break;
            } else text += msg[i++];
          }
        } else {
          text += c;
          i++;
        }
      } else if (c === '{') {
        flush();
        i++;
        parts.push(argument(inPlural));
      } else if (c === '}') {
        if (depth === 0) fail('unmatched }');
        break;
      } else if (c === '#' && inPlural) {
        flush();
        parts.push({ pound: true });
        i++;
      } else {
        text += c;
        i++;
      }
    }
    flush();
    return parts;
  };
  const argument = (inPlural: boolean): Part => {
    const arg = word();
    if (!arg) fail('argument name expected');
    ws();
    if (msg[i] === '}') {
      i++;
      return { arg };
    }
    if (msg[i] !== ',') fail('"," or "}" expected');
    i++;
    const type = word();
    ws();
    if (type === 'number' || type === 'date' || type === 'time') {
      let style = '';
      if (msg[i] === ',') {
        i++;
        const start = i;
        while (i < msg.length && msg[i] !== '}') i++;
        style = msg.slice(start, i).trim();
      }
      if (msg[i] !== '}') fail('"}" expected');
      i++;
      return { arg, type, style };
    }
    if (type !== 'plural' && type !== 'selectordinal' && type !== 'select') return fail(`unknown argument type ${type}`);
    if (msg[i] !== ',') fail('"," expected');
    i++;
    let offset = 0;
    const options: Record<string, Part[]> = {};
    for (;;) {
      ws();
      if (msg[i] === '}') {
        i++;
        break;
      }
      const selector = word();
      if (!selector) fail('selector expected');
      if (selector.startsWith('offset:')) {
        offset = Number(selector.slice(7) || word());
        continue;
      }
      ws();
      if (msg[i] !== '{') fail('"{" expected');
      i++;
      options[selector] = message(1, type === 'select' ? inPlural : true);
      if (msg[i] !== '}') fail('"}" expected');
      i++;
    }
    if (!options.other) fail(`${type} without other`);
    return { arg, type, offset, options };
  };
  const parts = message(0, false);
  if (i < msg.length) fail('unexpected }');
  return parts;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
const pluralRules = new Map<string, Intl.PluralRules>();
const cached = <T>(m: Map<string, T>, key: string, make: () => T) => m.get(key) ?? (m.set(key, make()), m.get(key)!);
const numberFormat = (locale: string, style = '') =>
  cached(numberFormats, `${locale}|${style}`, () => new Intl.NumberFormat(locale, style === 'percent' ? { style: 'percent' } : style === 'integer' ? { maximumFractionDigits: 0 } : {}));

function render(parts: Part[], values: Record<string, unknown>, locale: string, pound?: string): string {
  let out = '';
  for (const p of parts) {
    if (typeof p === 'string') out += p;
    else if ('pound' in p) out += pound ?? '#';
    else {
      const v = values[p.arg];
      if (!p.type) out += v === undefined || v === null ? '' : String(v);
      else if (p.type === 'number') out += numberFormat(locale, p.style).format(Number(v));
      else if (p.type === 'date' || p.type === 'time') out += v instanceof Date || typeof v === 'number' ? new Intl.DateTimeFormat(locale).format(v as Date) : String(v ?? '');
      else {
        const c = p as Extract<Part, { offset: number }>;
        if (c.type === 'select') out += render(c.options[String(v)] ?? c.options.other, values, locale, pound);
        else {
          const n = Number(v);
          const exact = c.options[`=${n}`];
          const rel = n - c.offset;
          const rule = cached(pluralRules, `${locale}|${c.type}`, () => new Intl.PluralRules(locale, { type: c.type === 'selectordinal' ? 'ordinal' : 'cardinal' }));
          out += render(exact ?? c.options[rule.select(rel)] ?? c.options.other, values, locale, numberFormat(locale).format(rel));
        }
      }
    }
  }
  return out;
}

const compiled = new Map<string, Part[]>();

/** Formats an ICU message; throws IcuSyntaxError for a message that doesn't parse. */
export function formatIcu(message: string, values: Record<string, unknown>, locale: string): string {
  let parts = compiled.get(message);
  if (!parts) {
    parts = parse(message);
    compiled.set(message, parts);
  }
  return render(parts, values, locale);
}

/** The i18next module: messages in ICU syntax, numbers and plural rules of `localeOf(lng)`. */
export function icuFormat(localeOf: (lng: string) => string) {
  return {
    type: 'i18nFormat' as const,
    init() {},
    parse(res: unknown, options: Record<string, unknown>, lng: string): unknown {
      if (typeof res !== 'string') return res;
      try {
        return formatIcu(res, options ?? {}, localeOf(lng));
      } catch {
        // A broken message shows as written (the catalogue check in npm test refuses it anyway).
        return res;
      }
    },
    addLookupKeys(finalKeys: string[]) {
      return finalKeys;
    },
  };
}
