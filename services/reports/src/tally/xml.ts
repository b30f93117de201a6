import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { TALLY_LEDGERS, type TallyGroup } from '@bahi/contracts';
import type { TallyParty, TallyVoucher } from './vouchers';

/** GST duty head of each tax ledger (TallyPrime's "Type of duty/tax" and its GST head). */
const DUTY_HEAD: Record<string, string> = {
  output_cgst: 'Central Tax',
  input_cgst: 'Central Tax',
  output_sgst: 'State Tax',
  input_sgst: 'State Tax',
  output_igst: 'Integrated Tax',
  input_igst: 'Integrated Tax',
};

const yesNo = (b: boolean) => (b ? 'Yes' : 'No');
/** YYYY-MM-DD -> YYYYMMDD, Tally's date. */
const tallyDate = (d: string) => d.replace(/-/g, '');

function ledgerMaster(root: XMLBuilder, name: string, group: TallyGroup | string, extra?: (l: XMLBuilder) => void) {
  const l = root.ele('TALLYMESSAGE', { 'xmlns:UDF': 'TallyUDF' }).ele('LEDGER', { NAME: name, ACTION: 'Create' });
  l.ele('NAME.LIST', { TYPE: 'String' }).ele('NAME').txt(name);
  l.ele('PARENT').txt(group);
  extra?.(l);
}

export interface TallyFile {
  company: string;
  /** Every key's name in use (the company's mapping over the defaults). */
  ledgers: Record<string, string>;
  /** Which of Bahi's ledgers the vouchers use (only those are written as masters). */
  used: Set<string>;
  parties: TallyParty[];
  /** Ledgers outside Bahi's list (an expense category the company added). */
  extra?: { name: string; group: TallyGroup }[];
  vouchers: TallyVoucher[];
}

/**
 * The import file: ENVELOPE/HEADER/TALLYREQUEST "Import Data", BODY/IMPORTDATA with REQUESTDESC
 * (REPORTNAME Vouchers, the company in SVCURRENTCOMPANY) and REQUESTDATA holding the ledger
 * masters first, then the vouchers. The writer escapes & < > and quotes; text is UTF-8.
 */
export function tallyXml(f: TallyFile): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const env = doc.ele('ENVELOPE');
  env.ele('HEADER').ele('TALLYREQUEST').txt('Import Data');
  const imp = env.ele('BODY').ele('IMPORTDATA');
  const desc = imp.ele('REQUESTDESC');
  desc.ele('REPORTNAME').txt('Vouchers');
  desc.ele('STATICVARIABLES').ele('SVCURRENTCOMPANY').txt(f.company);
  const data = imp.ele('REQUESTDATA');
  for (const def of TALLY_LEDGERS) {
    const name = f.ledgers[def.key]!;
    if (!f.used.has(name) || def.key === 'walk_in') continue;
    ledgerMaster(data, name, def.group, (l) => {
      const head = DUTY_HEAD[def.key];
      if (head) {
        l.ele('TAXTYPE').txt('GST');
        l.ele('GSTDUTYHEAD').txt(head);
      }
      l.ele('ISBILLWISEON').txt('No');
    });
  }
  for (const x of f.extra ?? []) ledgerMaster(data, x.name, x.group, (l) => l.ele('ISBILLWISEON').txt('No'));
  for (const p of f.parties) {
    ledgerMaster(data, p.name, p.group, (l) => {
      l.ele('ISBILLWISEON').txt('Yes');
      if (p.address.length) {
        const a = l.ele('ADDRESS.LIST', { TYPE: 'String' });
        for (const line of p.address) a.ele('ADDRESS').txt(line);
      }
      if (p.state) l.ele('LEDSTATENAME').txt(p.state);
      l.ele('COUNTRYNAME').txt(p.country);
      if (p.pincode) l.ele('PINCODE').txt(p.pincode);
      l.ele('GSTREGISTRATIONTYPE').txt(p.gstin ? 'Regular' : 'Unregistered/Consumer');
      if (p.gstin) l.ele('PARTYGSTIN').txt(p.gstin);
    });
  }
  for (const v of f.vouchers) {
    const x = data.ele('TALLYMESSAGE', { 'xmlns:UDF': 'TallyUDF' }).ele('VOUCHER', { VCHTYPE: v.type, ACTION: 'Create' });
    x.ele('DATE').txt(tallyDate(v.date));
    x.ele('VOUCHERTYPENAME').txt(v.type);
    x.ele('VOUCHERNUMBER').txt(v.number);
    x.ele('PARTYLEDGERNAME').txt(v.party);
    x.ele('NARRATION').txt(v.narration);
    x.ele('ISCANCELLED').txt(yesNo(v.cancelled));
    // Tally's sign: a debit is ISDEEMEDPOSITIVE Yes with a negative AMOUNT, a credit No and positive.
    for (const e of v.entries) {
      const le = x.ele('ALLLEDGERENTRIES.LIST');
      le.ele('LEDGERNAME').txt(e.ledger);
      le.ele('ISDEEMEDPOSITIVE').txt(yesNo(e.dr.isPositive()));
      le.ele('ISPARTYLEDGER').txt(yesNo(e.ledger === v.party));
      le.ele('AMOUNT').txt(e.dr.neg().toFixed(2));
    }
  }
  return doc.end({ prettyPrint: true });
}
