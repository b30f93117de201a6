// The catalogue check in npm test: no user-visible literal in a component, every key used in code
// present in its namespace in both languages, the same keys in en and hi, and ICU messages that
// parse. Each failure names file:line and the string.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ESLint } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';
// The rule itself: the plugin's index finds its rules through require.extensions, which jest lacks.
import noLiteralString from 'eslint-plugin-i18next/lib/rules/no-literal-string';
import { IntlMessageFormat } from 'intl-messageformat';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { formatIcu } from './icu';
import { LITERAL_STRING_OPTIONS } from './lint-options';
import { collectAll, shownToUsers } from './server/collect';

const ROOT = path.resolve(__dirname, '../../..');
const rel = (f: string) => path.relative(ROOT, f);

/** The areas checked: each one's source folder and the namespace its catalogue is. */
interface Area {
  name: string;
  src: string;
  ns: string;
}
const frontends = fs
  .readdirSync(path.join(ROOT, 'frontends'))
  .filter((d) => fs.existsSync(path.join(ROOT, 'frontends', d, 'src')))
  .sort();
const AREAS: Area[] = [
  { name: 'shell', src: path.join(ROOT, 'shell/src'), ns: 'shell' },
  { name: 'ui-kit', src: path.join(ROOT, 'packages/ui-kit/src'), ns: 'ui' },
  ...frontends.map((d) => ({ name: `frontends/${d}`, src: path.join(ROOT, 'frontends', d, 'src'), ns: d })),
];

/** Where each namespace's en.json / hi.json live. */
function catalogueDir(ns: string): string {
  if (ns === 'server') return path.join(ROOT, 'packages/i18n/src/server');
  const area = AREAS.find((a) => a.ns === ns);
  return path.join(area ? area.src : path.join(ROOT, 'frontends', ns, 'src'), 'locales');
}

const LANGS = ['en', 'hi'] as const;
type Lang = (typeof LANGS)[number];
type Flat = Map<string, unknown>;

function flatten(obj: unknown, prefix = '', out: Flat = new Map()): Flat {
  if (obj && typeof obj === 'object' && !Array.isArray(obj)) {
    for (const [k, v] of Object.entries(obj)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out.set(prefix, obj);
  return out;
}

const catalogues = new Map<string, Partial<Record<Lang, Flat | string>>>();
/** A namespace's flattened catalogue per language, or the reason it can't be read. */
function catalogue(ns: string): Partial<Record<Lang, Flat | string>> {
  let c = catalogues.get(ns);
  if (!c) {
    c = {};
    for (const lng of LANGS) {
      const file = path.join(catalogueDir(ns), `${lng}.json`);
      if (!fs.existsSync(file)) c[lng] = `${rel(file)} is missing`;
      else {
        try {
          c[lng] = flatten(JSON.parse(fs.readFileSync(file, 'utf8')));
        } catch (err) {
          c[lng] = `${rel(file)} is not JSON: ${(err as Error).message}`;
        }
      }
    }
    catalogues.set(ns, c);
  }
  return c;
}

function walk(dir: string, exts: string[]): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!['node_modules', 'dist', 'locales', '__tests__', 'test'].includes(e.name)) out.push(...walk(p, exts));
    } else if (exts.some((x) => e.name.endsWith(x)) && !/\.(test|spec)\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

function fail(what: string, problems: string[]): void {
  if (problems.length) throw new Error(`${problems.length} ${what}:\n${problems.join('\n')}`);
}

// --- (b) keys used in code -----------------------------------------------------------------

interface KeyUse {
  file: string;
  line: number;
  ns: string | null;
  key: string;
}

function stringArg(n: ts.Node | undefined): string | undefined {
  if (n && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n))) return n.text;
  return undefined;
}

/** The namespace(s) a useTranslation(...) call names. */
function namespacesOf(call: ts.CallExpression): string[] {
  const of = (a: ts.Expression | undefined): string[] => {
    const s = stringArg(a);
    if (s) return [s];
    if (a && ts.isArrayLiteralExpression(a)) return a.elements.map(stringArg).filter((x): x is string => !!x);
    // useTranslation(cond ? ['ui', 'server'] : ['ui']): t reads the first namespace of either.
    if (a && ts.isConditionalExpression(a)) return [...of(a.whenTrue), ...of(a.whenFalse)];
    return [];
  };
  return of(call.arguments[0]);
}

function isUseTranslation(n: ts.Node): n is ts.CallExpression {
  return ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'useTranslation';
}

/** Namespaces declared by useTranslation directly in this function (not in nested ones). */
function declaredIn(fn: ts.Node): string[] {
  const found: string[] = [];
  const visit = (n: ts.Node) => {
    if (n !== fn && ts.isFunctionLike(n)) return;
    if (isUseTranslation(n)) found.push(...namespacesOf(n));
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(fn, visit);
  return found;
}

function keyUses(file: string): { uses: KeyUse[]; problems: string[] } {
  const text = fs.readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const uses: KeyUse[] = [];
  const problems: string[] = [];
  const fileNs: string[] = [];
  const visitNs = (n: ts.Node) => {
    if (isUseTranslation(n)) fileNs.push(...namespacesOf(n));
    ts.forEachChild(n, visitNs);
  };
  visitNs(sf);
  const where = (n: ts.Node) => ({ file: rel(file), line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1 });
  /** The namespace t() reads in: the enclosing component's useTranslation, else the file's only one. */
  const nsAt = (n: ts.Node): string | null => {
    for (let p: ts.Node | undefined = n.parent; p; p = p.parent) {
      if (ts.isFunctionLike(p)) {
        const d = declaredIn(p);
        if (d.length) return d[0];
      }
    }
    const distinct = [...new Set(fileNs)];
    return distinct.length === 1 ? distinct[0] : null;
  };
  const add = (n: ts.Node, raw: string, nsHint: string | null) => {
    const i = raw.indexOf(':');
    if (i > 0 && /^[a-z]+$/.test(raw.slice(0, i))) uses.push({ ...where(n), ns: raw.slice(0, i), key: raw.slice(i + 1) });
    else uses.push({ ...where(n), ns: nsHint, key: raw });
  };
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n)) {
      const callee = n.expression;
      const isT = ts.isIdentifier(callee) && callee.text === 't';
      const isI18nT = ts.isPropertyAccessExpression(callee) && callee.name.text === 't' && ts.isIdentifier(callee.expression) && /^i18n(ext)?$/.test(callee.expression.text);
      if (isT || isI18nT) {
        const key = stringArg(n.arguments[0]);
        if (key !== undefined) add(n, key, isT ? nsAt(n) : null);
      }
    }
    if ((ts.isJsxSelfClosingElement(n) || ts.isJsxOpeningElement(n)) && ts.isIdentifier(n.tagName) && n.tagName.text === 'Trans') {
      let key: string | undefined;
      let ns: string | null = null;
      for (const p of n.attributes.properties) {
        if (!ts.isJsxAttribute(p) || !ts.isIdentifier(p.name)) continue;
        const v = p.initializer && ts.isJsxExpression(p.initializer) ? p.initializer.expression : p.initializer;
        if (p.name.text === 'i18nKey') key = stringArg(v);
        if (p.name.text === 'ns') ns = stringArg(v) ?? null;
      }
      if (key !== undefined) add(n, key, ns ?? nsAt(n));
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  for (const u of uses) if (!u.ns) problems.push(`${u.file}:${u.line} t('${u.key}'): no namespace (useTranslation('ns') in the component, or 'ns:key')`);
  return { uses: uses.filter((u) => u.ns), problems };
}

function missingKeys(files: string[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const { uses, problems: p } = keyUses(file);
    problems.push(...p);
    for (const u of uses) {
      const cat = catalogue(u.ns!);
      for (const lng of LANGS) {
        const c = cat[lng];
        if (typeof c === 'string') problems.push(`${u.file}:${u.line} '${u.ns}:${u.key}': ${c}`);
        else if (!c!.has(u.key)) {
          // A key naming an object (a group of messages) is not a message.
          problems.push(`${u.file}:${u.line} '${u.ns}:${u.key}' is not in ${u.ns} ${lng}.json`);
        }
      }
    }
  }
  return problems;
}

// --- (a) literal strings in components ----------------------------------------------------

let eslint: ESLint | undefined;
function linter(): ESLint {
  eslint ??= new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.tsx'],
        languageOptions: { parser: tsParser, parserOptions: { ecmaFeatures: { jsx: true }, sourceType: 'module' } },
        plugins: { i18next: { rules: { 'no-literal-string': noLiteralString } } },
        linterOptions: { reportUnusedDisableDirectives: 'off' },
        rules: { 'i18next/no-literal-string': ['error', LITERAL_STRING_OPTIONS] },
      },
    ],
  });
  return eslint;
}

async function literalStrings(files: string[]): Promise<string[]> {
  if (!files.length) return [];
  const results = await linter().lintFiles(files);
  const problems: string[] = [];
  for (const r of results) {
    for (const m of r.messages) {
      // Rules the source disables by name but this config doesn't load are not findings.
      if (m.ruleId && m.ruleId !== 'i18next/no-literal-string') continue;
      if (m.fatal) {
        problems.push(`${rel(r.filePath)}:${m.line} cannot be parsed: ${m.message}`);
        continue;
      }
      // JSX text starts right after its tag, often at the end of the line before: name the words' line.
      const lines = (r.source ?? fs.readFileSync(r.filePath, 'utf8')).split('\n');
      let line = m.line;
      if (!lines[line - 1].slice(m.column - 1).trim()) {
        do line++;
        while (line < lines.length && !lines[line - 1].trim());
      }
      problems.push(`${rel(r.filePath)}:${line} literal: ${lines[line - 1].trim().slice(0, 160)}`);
    }
  }
  return [...new Set(problems)];
}

// --- (c) and (d): the catalogues themselves ---------------------------------------------------

function argumentsOf(els: MessageFormatElement[], out = new Set<string>()): Set<string> {
  for (const e of els) {
    if (e.type === TYPE.literal || e.type === TYPE.pound) continue;
    out.add(e.value);
    if (e.type === TYPE.plural || e.type === TYPE.select) for (const o of Object.values(e.options)) argumentsOf(o.value, out);
    if (e.type === TYPE.tag) argumentsOf(e.children, out);
  }
  return out;
}

/** Values to format a message with: each plural/select argument through its cases, the rest as text. */
function sampleValues(els: MessageFormatElement[]): Record<string, unknown>[] {
  const plain: Record<string, unknown> = {};
  const counts = new Set<string>();
  const walkEls = (list: MessageFormatElement[]) => {
    for (const e of list) {
      if (e.type === TYPE.argument) plain[e.value] ??= `«${e.value}»`;
      if (e.type === TYPE.number) plain[e.value] = 1234567.5;
      if (e.type === TYPE.plural) counts.add(e.value);
      if (e.type === TYPE.select) plain[e.value] = Object.keys(e.options).find((o) => o !== 'other') ?? 'other';
      if (e.type === TYPE.plural || e.type === TYPE.select) for (const o of Object.values(e.options)) walkEls(o.value);
      if (e.type === TYPE.tag) walkEls(e.children);
    }
  };
  walkEls(els);
  if (!counts.size) return [plain];
  return [0, 1, 2, 5, 21, 100000].map((n) => ({ ...plain, ...Object.fromEntries([...counts].map((c) => [c, n])) }));
}

function catalogueProblems(ns: string): string[] {
  const cat = catalogue(ns);
  const problems: string[] = [];
  for (const lng of LANGS) if (typeof cat[lng] === 'string') problems.push(`${ns}: ${cat[lng]}`);
  if (problems.length) return problems;
  const en = cat.en as Flat;
  const hi = cat.hi as Flat;
  const dir = rel(catalogueDir(ns));
  for (const k of en.keys()) if (!hi.has(k)) problems.push(`${dir}/hi.json: missing '${k}' (en: ${JSON.stringify(en.get(k))})`);
  for (const k of hi.keys()) if (!en.has(k)) problems.push(`${dir}/en.json: missing '${k}' (hi: ${JSON.stringify(hi.get(k))})`);
  const args: Record<Lang, Map<string, Set<string>>> = { en: new Map(), hi: new Map() };
  for (const lng of LANGS) {
    for (const [k, v] of (cat[lng] as Flat).entries()) {
      if (typeof v !== 'string') {
        problems.push(`${dir}/${lng}.json '${k}': not a string (${JSON.stringify(v)})`);
        continue;
      }
      // The server catalogue is not ICU (its keys are the services' own sentences, braces and all):
      // its {placeholders} are compared as written.
      if (ns === 'server') {
        args[lng].set(k, new Set([...v.matchAll(/\{(\w+)\}/g)].map((m) => m[1])));
        continue;
      }
      try {
        // Both the formatter i18next-icu uses and the parser, so a message that renders also names its arguments.
        const locale = lng === 'hi' ? 'hi-IN' : 'en-IN';
        const reference = new IntlMessageFormat(v, locale, undefined, { ignoreTag: true });
        args[lng].set(k, argumentsOf(parse(v)));
        // The runtime's own ICU formatter says exactly what intl-messageformat says.
        for (const values of sampleValues(parse(v))) {
          const want = String(reference.format(values));
          const got = formatIcu(v, values, locale);
          if (got !== want) problems.push(`${dir}/${lng}.json '${k}': the runtime formats ${JSON.stringify(values)} as ${JSON.stringify(got)}, ICU as ${JSON.stringify(want)}`);
        }
      } catch (err) {
        problems.push(`${dir}/${lng}.json '${k}': not an ICU message (${(err as Error).message}): ${JSON.stringify(v)}`);
      }
    }
  }
  for (const [k, a] of args.en) {
    const b = args.hi.get(k);
    if (!b) continue;
    const diff = [...a].filter((x) => !b.has(x)).concat([...b].filter((x) => !a.has(x)));
    if (diff.length) problems.push(`${dir} '${k}': en uses {${[...a].join('} {')}} but hi {${[...b].join('} {')}}`);
  }
  return problems;
}

// --- the tests -----------------------------------------------------------------------------

describe('catalogues: every user-visible string of every area is translated', () => {
  describe.each(AREAS.map((a) => [a.name, a] as const))('%s', (_name, area) => {
    it('has no literal JSX text or visible attribute (placeholder, title, aria-label, alt, label) in its components', async () => {
      fail(`literal strings in ${area.name} (use t('key') with the key in src/locales/en.json and hi.json)`, await literalStrings(walk(area.src, ['.tsx'])));
    });

    it("uses only keys its namespace has in both en.json and hi.json", () => {
      fail(`keys missing in ${area.name}`, missingKeys(walk(area.src, ['.ts', '.tsx'])));
    });
  });

  const namespaces = [...new Set([...AREAS.map((a) => a.ns), 'server'])].filter((ns) => fs.existsSync(catalogueDir(ns)));
  it.each(namespaces)('%s: en and hi have the same keys and every message is valid ICU with the same arguments', (ns) => {
    fail(`catalogue problems in ${ns}`, catalogueProblems(ns));
  });

  it("server: every sentence a service can send to the screens is in the server catalogue (Hindi for the alerts)", () => {
    const en = JSON.parse(fs.readFileSync(path.join(catalogueDir('server'), 'en.json'), 'utf8')) as { messages: Record<string, string>; patterns: Record<string, string> };
    const missing = shownToUsers(collectAll(ROOT))
      .filter((f) => !(f.text.trim() in (f.pattern ? en.patterns : en.messages)))
      .map((f) => `${f.file}:${f.line} ${JSON.stringify(f.text.trim())} (add it to packages/i18n/src/server/en.json and hi.json ${f.pattern ? 'patterns' : 'messages'})`);
    fail('service messages missing from the server catalogue', missing);
  });

  it('every Hindi catalogue (screens, server, printed documents) says प्रोडक्ट and डिस्ट्रीब्यूटर, as the sidebar does', () => {
    // The sidebar's words; the synonyms a translator reaches for first.
    const variants = [
      { word: /वितरक/g, use: 'डिस्ट्रीब्यूटर' },
      { word: /उत्पाद/g, use: 'प्रोडक्ट' },
      { word: /सामान(?!्य)/g, use: 'प्रोडक्ट' },
    ];
    const files = [...namespaces.map((ns) => path.join(catalogueDir(ns), 'hi.json')), path.join(ROOT, 'services/documents/src/locales/hi.json')];
    const found: string[] = [];
    for (const file of files) {
      for (const [k, v] of flatten(JSON.parse(fs.readFileSync(file, 'utf8')))) {
        for (const { word, use } of variants) if (typeof v === 'string' && v.match(word)) found.push(`${rel(file)} '${k}': ${JSON.stringify(v)} (say ${use})`);
      }
    }
    expect(files.length).toBeGreaterThan(9);
    expect(catalogue('shell').hi instanceof Map && (catalogue('shell').hi as Flat).get('nav.distributors')).toBe('डिस्ट्रीब्यूटर');
    fail('other words for the same thing', found);
  });

  it('the check itself finds a literal, a missing key and a broken message', async () => {
    // A throwaway component and catalogue beside the tests, so the check is known to bite.
    const dir = fs.mkdtempSync(path.join(ROOT, 'packages/i18n/.check-'));
    try {
      const file = path.join(dir, 'Bad.tsx');
      fs.writeFileSync(
        file,
        [
          "import { useTranslation } from '@bahi/i18n';",
          'export function Bad({ on }: { on: boolean }) {',
          "  const { t } = useTranslation('shell');",
          '  return (',
          '    <div className="x" data-testid="bad">',
          '      Plain words',
          "      <input placeholder=\"Type here\" name=\"q\" aria-label={t('nav.cart')} />",
          "      {on ? 'Shown text' : t('no.such.key')}",
          '    </div>',
          '  );',
          '}',
          '',
        ].join('\n'),
      );
      const lit = await literalStrings([file]);
      expect(lit.map((l) => l.replace(/^.*Bad\.tsx:/, ''))).toEqual([
        '6 literal: Plain words',
        expect.stringMatching(/^7 literal: <input placeholder="Type here"/),
        "8 literal: {on ? 'Shown text' : t('no.such.key')}",
      ]);
      const keys = missingKeys([file]).map((l) => l.replace(/^.*Bad\.tsx:/, ''));
      expect(keys).toEqual(["8 'shell:no.such.key' is not in shell en.json", "8 'shell:no.such.key' is not in shell hi.json"]);
      expect(() => new IntlMessageFormat('{count, plural, one {# item}', 'en-IN')).toThrow();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
