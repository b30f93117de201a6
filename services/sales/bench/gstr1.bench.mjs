// GSTR-1 of a big month: one company in GST mode with 100,000 tax invoices in May 2026 (and
// 10,000 in June, to compare), GET /gst/gstr1 through the gateway, timed, while the sales
// process's resident memory is sampled: streamed, its growth should not follow the month's size.
// Run after `npm run build`: node services/sales/bench/gstr1.bench.mjs [out.json]
//
// The invoices are written straight into sales' database in batches, shaped as checkout freezes
// them (the SaleGst of @bahi/gst computeInvoice): mostly walk-in (b2cs), some B2B across 200
// buyers, some inter-state to unregistered buyers (b2cs, and b2cl above Rs 1,00,000); credit
// notes on every 50th invoice and on each b2cl one (cdnr, cdnur, b2cs and HSN netting).
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchClient } from './client.mjs';

const require = createRequire(import.meta.url);
const { startStack } = require('@bahi/devstack');
const { MongoClient } = require('mongodb');
const { computeInvoice, formatInvoiceNo, gstinCheckChar, stateName } = require('@bahi/gst');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const BIG = Number(process.env.BENCH_INVOICES || 100_000);
const SMALL = Math.max(1, Math.round(BIG / 10));
const COMPANY = 1; // Demo Traders
const GSTIN = '27AAPFU0939F1ZV';
const BUDGET_S = 10;
const out = process.argv[2];

/** RSS of a process in MiB, from /proc; NaN once it has gone. */
function rssMiB(pid) {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

const stack = await startStack({ rootDir: ROOT, services: ['identity', 'inventory', 'ledger', 'sales'], env: { LOG_LEVEL: 'warn' }, logs: 'files' });
try {
  const { agent, call, login } = benchClient(stack.gatewayUrl);
  /** GET as a download: bytes counted as they arrive (never kept), time to the last byte. */
  function download(p, token) {
    return new Promise((resolve, reject) => {
      const t0 = performance.now();
      let bytes = 0;
      let head = '';
      const req = http.request(`${stack.gatewayUrl}/api${p}`, { agent, headers: { Authorization: `Bearer ${token}` } }, (res) => {
        res.on('data', (c) => {
          bytes += c.length;
          if (head.length < 200) head += c.toString('utf8');
        });
        res.on('end', () => (res.statusCode >= 400 ? reject(new Error(`${p}: ${res.statusCode} ${head}`)) : resolve({ ms: performance.now() - t0, bytes, head })));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }

  const manager = await login('manager@demo.local', 'manager12345');
  const details = await call('GET', '/getCompanyDetails', manager);
  await call('POST', '/setCompanyDetails', manager, { id: details.id, name: details.name, add1: details.add1 || 'Pune', mob1: details.mob1 || '9876543210', email: details.email || 'gst@bench.local', tax_mode: 'gst', gstin: GSTIN, invoice_prefix: 'BN' });

  // Invoice shapes, computed once: walk-in intra (18 % incl. + 12 % excl.), B2B intra, B2B
  // inter-state, unregistered inter-state small (b2cs) and large (b2cl).
  const lineA = { mrp: '590', discount: '0', quantity: '3', per_peice_quantity: '1', rate: '18', priceIncludesTax: true, hsn: '7323', unit: 'pcs' };
  const lineB = { mrp: '100', discount: '5', quantity: '2', per_peice_quantity: '1', rate: '12', priceIncludesTax: false, hsn: '4820', unit: 'pcs' };
  const big = { mrp: '150000', discount: '0', quantity: '1', per_peice_quantity: '1', rate: '18', priceIncludesTax: false, hsn: '8414', unit: 'pcs' };
  // Even buyers in Gujarat (24), odd ones in Maharashtra (27), as the B2B templates are priced.
  const buyers = Array.from({ length: 200 }, (_, i) => {
    const state = i % 2 ? '27' : '24';
    const body = `${state}AAACB${String(1000 + i).padStart(4, '0')}C1Z`;
    return body + gstinCheckChar(body);
  });
  const shape = (customerGstin, customerState, lines) => computeInvoice({ mode: 'gst', companyState: '27', customerGstin, customerState, lines });
  const templates = {
    walkIn: shape(null, null, [lineA, lineB]),
    b2b27: shape(buyers[1], null, [lineA, lineB]),
    b2b24: shape(buyers[0], null, [lineA, lineB]),
    unregInter: shape(null, '29', [lineA, lineB]),
    b2cl: shape(null, '29', [big]),
  };
  const inputs = { walkIn: [lineA, lineB], b2b27: [lineA, lineB], b2b24: [lineA, lineB], unregInter: [lineA, lineB], b2cl: [big] };
  const names = { '7323': 'Steel Bottle', '4820': 'Notebook', '8414': 'Air Cooler' };

  let saleId = 5_000_000;
  let serial = 0;
  function sale(kind, date, buyer) {
    const inv = templates[kind];
    const id = ++saleId;
    const gstin = kind.startsWith('b2b') ? buyer : null;
    const stateCode = gstin ? gstin.slice(0, 2) : kind === 'walkIn' ? null : '29';
    const walkIn = kind === 'walkIn';
    serial++;
    return {
      companyId: COMPANY, saleId: id, status: 'complete', idempotencyKey: `bench-${id}`, invoicePrefix: 'BN', tax_mode: 'gst',
      source: { kind: 'cart', userId: 1, cart_no: 1, estimateId: 0, version: 0 }, clientId: walkIn ? 0 : 900_000 + (id % 1000),
      customer: { client_id: walkIn ? 0 : 900_000 + (id % 1000), name: walkIn ? 'Walk-in' : `Buyer ${id % 1000}`, mobile_no: '', address_line_1: '', address_line_2: '', city_or_district: '', state: stateCode ?? '', country: 'India', postal_code: '', walkIn, gstin, state_code: stateCode },
      date, dueDate: date, paid: '0', tax: 0, shipping: '0', discount: '0', previousDue: '0', createdBy: 1, stockApplied: true, ledgerPosted: true, warnings: [],
      lines: inputs[kind].map((l, i) => ({ sl_no: i + 1, product_id: 1001 + i, product_name: names[l.hsn], mrp: l.mrp, unit: 'pcs', stock: '0', quantity: l.quantity, per_peice_quantity: '1', discount: l.discount, hsn_code: l.hsn, gst_rate: l.rate, price_includes_tax: l.priceIncludesTax })),
      subtotal: inv.lines.reduce((a, c) => a + Number(c.gross), 0).toFixed(2), taxAmount: inv.tax, amount: inv.invoiceValue,
      gst: {
        tax_mode: 'gst', document: 'tax-invoice', invoice_no: formatInvoiceNo('BN', '26-27', serial), fy: '26-27', serial, invoice_date: date,
        supplier: { name: 'Demo Traders', address: ['Pune'], gstin: GSTIN, state_code: '27', state_name: 'Maharashtra', mobile: '', email: '' },
        recipient: { name: walkIn ? 'Unknown' : `Buyer ${id % 1000}`, address: [], gstin, state_code: stateCode, state_name: stateCode ? stateName(stateCode) : null, mobile: '', email: '' },
        b2b: inv.registeredCustomer, place_of_supply: inv.placeOfSupply, place_of_supply_name: stateName(inv.placeOfSupply), inter_state: inv.interState, state_tax_name: inv.stateTaxName, reverse_charge: false,
        lines: inv.lines.map((c, i) => ({ sl_no: i + 1, hsn_code: c.hsn, uqc: c.uqc, gst_rate: c.rate, price_includes_tax: inputs[kind][i].priceIncludesTax, qty: c.qty, line_taxable: c.lineTaxable, share: c.share, taxable_value: c.taxable, cgst: c.cgst, sgst: c.sgst, igst: c.igst })),
        taxable_total: inv.taxable, cgst_total: inv.cgst, sgst_total: inv.sgst, igst_total: inv.igst, tax_total: inv.tax, exact_total: inv.exactTotal, round_off: inv.roundOff, invoice_value: inv.invoiceValue,
      },
      createdAt: new Date(), updatedAt: new Date(),
    };
  }
  // 90 % walk-in, 8 % B2B (200 buyers, both states), 1.9 % unregistered inter-state, 0.1 % b2cl.
  const kindOf = (i) => (i % 1000 < 900 ? 'walkIn' : i % 1000 < 980 ? (i % 2 ? 'b2b27' : 'b2b24') : i % 1000 < 999 ? 'unregInter' : 'b2cl');

  // Credit notes (sales returns) as sales stores them: one bottle back on every 50th invoice
  // (walk-in and B2B) and the whole cooler of every b2cl invoice (cdnur), dated the same day.
  let noteId = 7_000_000;
  let noteSerial = 0;
  function note(inv) {
    const g = inv.gst;
    const line = g.lines[0];
    const whole = g.lines.length === 1;
    const taxable = whole ? line.taxable_value : '500.00';
    const tax = whole ? line.igst : '90.00';
    const heads = g.inter_state ? { igst: tax, cgst: '0.00', sgst: '0.00' } : { igst: '0.00', cgst: (Number(tax) / 2).toFixed(2), sgst: (Number(tax) / 2).toFixed(2) };
    const amount = (Number(taxable) + Number(tax)).toFixed(2);
    const id = ++noteId;
    noteSerial++;
    return {
      companyId: COMPANY, creditNoteId: id, status: 'complete', idempotencyKey: `bench-note-${id}`, saleId: inv.saleId, fy: '26-27', serial: noteSerial,
      credit_note_no: formatInvoiceNo('CN', '26-27', noteSerial), date: g.invoice_date, sale_date: g.invoice_date, reason: '', clientId: inv.clientId, customer: inv.customer,
      lines: [{ sl_no: 1, product_id: 1001, product_name: inv.lines[0].product_name, hsn_code: line.hsn_code, unit: 'pcs', mrp: inv.lines[0].mrp, discount: '0', quantity: '1', per_peice_quantity: '1', amount: taxable, summary_discount: '0', tax: '0', value: amount, gst: { gst_rate: line.gst_rate, taxable_value: taxable, ...heads } }],
      subtotal: taxable, discount: '0', tax: '0', shipping: '0', amount, refund: '0', completesBill: false, tax_mode: 'gst',
      gst: {
        tax_mode: 'gst', invoice_no: g.invoice_no, invoice_date: g.invoice_date, gstin: g.recipient.gstin, recipient_name: g.recipient.name, place_of_supply: g.place_of_supply,
        place_of_supply_name: g.place_of_supply_name, inter_state: g.inter_state, state_tax_name: g.state_tax_name, taxable_total: taxable, ...Object.fromEntries(Object.entries(heads).map(([k, v]) => [`${k}_total`, v])), tax_total: tax, round_off: '0.00',
      },
      createdAt: new Date(), updatedAt: new Date(),
    };
  }

  const client = await MongoClient.connect(stack.mongoUri);
  const col = client.db('bahi_sales').collection('sales');
  const notesCol = client.db('bahi_sales').collection('credit_notes');
  async function seedMonth(month, n) {
    const t0 = performance.now();
    let noted = 0;
    for (let start = 0; start < n; start += 1000) {
      const docs = [];
      const notes = [];
      for (let i = start; i < Math.min(start + 1000, n); i++) {
        const kind = kindOf(i);
        const day = String(1 + Math.floor((i * 30) / n)).padStart(2, '0');
        docs.push(sale(kind, `${month}-${day}`, buyers[2 * ((i * 7) % 100) + (kind === 'b2b27' ? 1 : 0)]));
        if (i % 50 === 0 || kind === 'b2cl') notes.push(note(docs[docs.length - 1]));
      }
      await col.insertMany(docs, { ordered: false });
      if (notes.length) await notesCol.insertMany(notes, { ordered: false });
      noted += notes.length;
    }
    console.log(`seeded ${n} invoices and ${noted} credit notes in ${month} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  await seedMonth('2026-05', BIG);
  await seedMonth('2026-06', SMALL);
  await client.close();

  const pid = stack.pids().sales;
  /** CPU seconds (user + system) a process has used, from /proc/<pid>/stat. */
  const cpuS = (p) => {
    try {
      const f = fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(f[11]) + Number(f[12])) / 100;
    } catch {
      return NaN;
    }
  };
  const pids = stack.pids();
  async function measure(period, label, query = '') {
    const cpu0 = { sales: cpuS(pids.sales), mongo: cpuS(pids.mongo), gateway: cpuS(pids.gateway) };
    const before = rssMiB(pid);
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid) || 0)), 20);
    const r = await download(`${query || '/gst/gstr1?period='}${period}`, manager).finally(() => clearInterval(timer));
    const after = rssMiB(pid);
    if (Number.isNaN(after)) throw new Error(`the sales process (pid ${pid}) is gone`);
    peak = Math.max(peak, after);
    const cpu = Object.fromEntries(Object.entries(cpu0).map(([k, v]) => [k, +(cpuS(pids[k]) - v).toFixed(2)]));
    const row = { label, period, seconds: +(r.ms / 1000).toFixed(2), cpu_s: cpu, mib: +(r.bytes / 1048576).toFixed(1), rss_before_mib: +before.toFixed(0), rss_peak_mib: +peak.toFixed(0), rss_growth_mib: +(peak - before).toFixed(0) };
    console.log(JSON.stringify(row));
    return row;
  }
  const rows = [];
  rows.push(await measure('2026-06', `${SMALL} invoices, first call`));
  rows.push(await measure('2026-05', `${BIG} invoices, first call`));
  rows.push(await measure('2026-05', `${BIG} invoices, again`));
  rows.push(await measure('2026-06', `${SMALL} invoices, again`));
  // Where the time goes: the b2b pass alone (its CSV) and the month pass alone (GSTR-3B).
  const parts = [
    await measure('2026-05', `${BIG} invoices, b2b CSV only (the sorted b2b pass)`, '/gst/gstr1?format=csv&section=b2b&period='),
    await measure('2026-05', `${BIG} invoices, cdnr CSV only (the credit notes' pass, 1 in 50 invoices)`, '/gst/gstr1?format=csv&section=cdnr&period='),
    await measure('2026-05', `${BIG} invoices, GSTR-3B (one pass over the month)`, '/gst/gstr3b?period='),
  ];
  const worst = Math.max(...rows.filter((r) => r.period === '2026-05').map((r) => r.seconds));
  rows.push(...parts);
  // QRMP (services/sales README "Quarterly filers"): the same invoices as quarter 2026-27-Q1 of a
  // quarterly filer: the quarter streamed, May's IFF, the quarter once May's IFF is filed (the
  // numbers it reported left out), marking the quarter filed (built and stored), the stored bytes.
  if (process.env.BENCH_QRMP !== '0') {
    await call('POST', '/setCompanyDetails', manager, { id: details.id, name: details.name, add1: details.add1 || 'Pune', mob1: details.mob1 || '9876543210', email: details.email || 'gst@bench.local', gst_filing: 'quarterly' });
    rows.push(await measure('2026-27-Q1', `${BIG + SMALL} invoices, quarter streamed (no IFF filed)`, '/gst/gstr1?quarter='));
    rows.push(await measure('2026-05', `${BIG} invoices, IFF of May (b2b and cdnr of the month's GSTR-1)`, '/gst/iff?period='));
    await call('POST', '/gst/periods/2026-05/filed', manager, { arn: 'AA2706260000011' });
    rows.push(await measure('2026-27-Q1', `${BIG + SMALL} invoices, quarter after May's IFF was filed (its numbers left out of b2b/cdnr)`, '/gst/gstr1?quarter='));
    const t0 = performance.now();
    const cpu0 = cpuS(pids.sales);
    const filed = await call('POST', '/gst/periods/2026-27-Q1/filed', manager, { arn: 'AA2707260000022' });
    const markRow = { label: `mark 2026-27-Q1 filed (build ${((filed.bytes ?? 0) / 1048576).toFixed(1)} MiB and store it)`, period: '2026-27-Q1', seconds: +((performance.now() - t0) / 1000).toFixed(2), cpu_s: { sales: +(cpuS(pids.sales) - cpu0).toFixed(2) } };
    console.log(JSON.stringify(markRow));
    rows.push(markRow);
    rows.push(await measure('2026-27-Q1', `${BIG + SMALL} invoices, quarter as filed (the stored bytes)`, '/gst/gstr1?quarter='));
  }
  const result = { invoices: BIG, budget_s: BUDGET_S, worst_s: worst, pass: worst < BUDGET_S, via: 'gateway', rows };
  console.log(`GSTR-1 of ${BIG} invoices: worst ${worst} s (budget ${BUDGET_S} s) ${result.pass ? 'PASS' : 'FAIL'}`);
  if (out) fs.writeFileSync(out, JSON.stringify(result, null, 2));
} finally {
  await stack.stop();
}
