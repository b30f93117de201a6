// Finds the sentences the services can send to a person: string and template literals in
// services/*/src (and the shared packages whose errors reach replies) that read as a sentence,
// leaving out logs. Template literals become patterns: `Product ${code} not found.` ->
// 'Product {code} not found.'. The check in npm test keeps the server catalogue complete with it.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface Found {
  text: string;
  pattern: boolean;
  file: string;
  line: number;
  /** An import column's label or match rule: shown as written, sentence or not. */
  field?: boolean;
}

/** Properties whose string is shown to a person whatever its shape (the import wizard's column labels, its match rule). */
const SHOWN_PROPERTIES = new Set(['label', 'matchBy']);

function shownProperty(n: ts.Node): boolean {
  const p = n.parent;
  return !!p && ts.isPropertyAssignment(p) && p.initializer === n && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && SHOWN_PROPERTIES.has(p.name.text);
}

const LOG_CALLEES = /^(this\.)?(logger|log|console|Logger)\b|\.(log|debug|verbose|warn|info|trace)$/;

/** A literal a person could read: words with letters, a space, not an identifier or a path. */
export function isSentence(s: string): boolean {
  const t = s.trim();
  if (t.length < 4 || !/\s/.test(t) || !/[A-Za-z]/.test(t)) return false;
  if (/^[a-z0-9_.:/-]+$/i.test(t)) return false;
  // Mongo queries, SQL-ish, CSS, code: braces or $ at the start, or no lower-case word at all.
  if (/^[$({[<]/.test(t) || /=>|\$\{|;\s*$/.test(t)) return false;
  // Sentences start with a capital, a field name followed by a verb, or a placeholder.
  return /^(\{\w+\}|[A-Z"'(]|[a-z_][\w.[\]]* (must|is|are|may|has|should|cannot|can|needs?|was|does|not|only|too|of|for|and|or|,|\())/.test(t);
}

function placeholderName(e: ts.Expression, used: Set<string>): string {
  let base = 'value';
  const inner = ts.isAsExpression(e) || ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) ? e.expression : e;
  if (ts.isIdentifier(inner)) base = inner.text;
  else if (ts.isPropertyAccessExpression(inner)) base = inner.name.text;
  else if (ts.isCallExpression(inner)) {
    const c = inner.expression;
    base = ts.isIdentifier(c) ? c.text : ts.isPropertyAccessExpression(c) ? c.name.text : 'value';
  }
  base = base.replace(/[^A-Za-z0-9_]/g, '') || 'value';
  let name = base;
  for (let i = 2; used.has(name); i++) name = `${base}${i}`;
  used.add(name);
  return name;
}

function inLogCall(n: ts.Node): boolean {
  for (let p = n.parent; p; p = p.parent) {
    if (ts.isCallExpression(p)) {
      const callee = p.expression.getText();
      if (LOG_CALLEES.test(callee)) return true;
    }
    if (ts.isDecorator(p)) {
      // Mongoose/Nest decorators carry no messages; class-validator's do (their `message`).
      const text = p.expression.getText();
      if (/^(Prop|Schema|Module|Controller|Get|Post|Put|Delete|Injectable|Inject|MessagePattern|EventPattern)\b/.test(text)) return true;
    }
    if (ts.isImportDeclaration(p) || ts.isExportDeclaration(p)) return true;
  }
  return false;
}

export function collectFile(file: string, root: string): Found[] {
  const text = fs.readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: Found[] = [];
  const at = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const visit = (n: ts.Node) => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) {
      if (n.text.trim() && shownProperty(n) && !inLogCall(n)) out.push({ text: n.text, pattern: false, file: path.relative(root, file), line: at(n), field: true });
      else if (isSentence(n.text) && !inLogCall(n)) out.push({ text: n.text, pattern: false, file: path.relative(root, file), line: at(n) });
    } else if (ts.isTemplateExpression(n)) {
      const used = new Set<string>();
      let s = n.head.text;
      for (const span of n.templateSpans) s += `{${placeholderName(span.expression, used)}}${span.literal.text}`;
      const plain = s.replace(/\{\w+\}/g, 'x');
      if (isSentence(plain) && /[A-Za-z]{2,}/.test(plain.replace(/\bx\b/g, '')) && !inLogCall(n)) out.push({ text: s, pattern: true, file: path.relative(root, file), line: at(n) });
      return; // its parts are not messages of their own
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!['node_modules', 'dist', 'test', 'seed', 'templates'].includes(e.name)) out.push(...walk(p));
    } else if (/\.ts$/.test(e.name) && !/\.(test|spec|d)\.ts$/.test(e.name) && !/(^|\/)(main|seed[\w-]*|.*\.schema)\.ts$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

/** The source folders whose messages reach the screens. */
export function messageSources(root: string): string[] {
  const services = fs.readdirSync(path.join(root, 'services'), { withFileTypes: true }).filter((d) => d.isDirectory() && fs.existsSync(path.join(root, 'services', d.name, 'src')));
  return [
    ...services.filter((d) => !NOT_SHOWN_BY_SCREENS.includes(d.name)).map((d) => path.join(root, 'services', d.name, 'src')),
    path.join(root, 'gateway/src'),
    ...['service-kit', 'auth', 'gst', 'tabular'].map((p) => path.join(root, 'packages', p, 'src')),
  ];
}

/** documents prints its own pages and PDFs (their text is the documents' catalogue, not alerts). */
const NOT_SHOWN_BY_SCREENS = ['documents'];

/** The ones that read as a message to a person (a sentence, or a rule about a field): the server catalogue's keys. */
export function shownToUsers(found: Found[]): Found[] {
  const seen = new Set<string>();
  return found.filter((f) => {
    const t = f.text.trim();
    if (!f.field && !/[.!?]$/.test(t) && !/ (must|is|are|not|cannot|no) /.test(t)) return false;
    if (seen.has(t)) return false;
    seen.add(t);
    return true;
  });
}

export function collectAll(root: string): Found[] {
  const all: Found[] = [];
  for (const dir of messageSources(root)) for (const f of walk(dir)) all.push(...collectFile(f, root));
  return all;
}
