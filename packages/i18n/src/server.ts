// Lookup of a service's English message in the `server` catalogue: exact texts first, then
// patterns whose {placeholders} stand for the variable parts (a code, a number, a name).

export interface ServerCatalogue {
  /** Exact English text -> the text in this language. */
  messages?: Record<string, string>;
  /** English with {placeholders} -> this language with the same placeholders. */
  patterns?: Record<string, string>;
}

const compiled = new WeakMap<object, Array<{ re: RegExp; names: string[]; to: string }>>();

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function patternsOf(cat: ServerCatalogue) {
  const patterns = cat.patterns ?? {};
  let list = compiled.get(patterns);
  if (!list) {
    list = Object.entries(patterns).map(([from, to]) => {
      const names: string[] = [];
      const parts = from.split(/\{(\w+)\}/);
      let src = '';
      parts.forEach((part, i) => {
        if (i % 2) {
          names.push(part);
          src += '(.*?)';
        } else src += escapeRe(part);
      });
      return { re: new RegExp(`^${src}$`, 's'), names, to };
    });
    // Longer literal text first: the most specific pattern wins.
    list.sort((a, b) => b.re.source.length - a.re.source.length);
    compiled.set(patterns, list);
  }
  return list;
}

function matchOne(cat: ServerCatalogue, message: string): string | undefined {
  const exact = cat.messages?.[message];
  if (exact !== undefined) return exact;
  for (const p of patternsOf(cat)) {
    const m = p.re.exec(message);
    if (m) {
      const values: Record<string, string> = {};
      p.names.forEach((n, i) => (values[n] = m[i + 1]));
      // A variable part may itself be a known message (e.g. a row's reason).
      return p.to.replace(/\{(\w+)\}/g, (_, n: string) => {
        const v = values[n] ?? '';
        return cat.messages?.[v] ?? v;
      });
    }
  }
  return undefined;
}

/** The translation of `message`, or undefined when the catalogue doesn't know it. */
export function matchServerMessage(cat: ServerCatalogue, message: string): string | undefined {
  const whole = matchOne(cat, message.trim());
  if (whole !== undefined) return whole;
  // Validation replies arrive as several messages joined with ', ' (ui-kit's api client).
  const parts = message.split(', ');
  if (parts.length > 1) {
    const done = parts.map((p) => matchOne(cat, p.trim()));
    if (done.every((d) => d !== undefined)) return done.join(', ');
  }
  return undefined;
}
