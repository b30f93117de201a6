import { BadRequestException } from '@nestjs/common';
import { DEFAULT_EWAYBILL_THRESHOLD, type BillEwaybill, type CompanyDetails, type EwbBill, type EwbItem } from '@bahi/contracts';
import { ewbDate, isPincode, isTransporterId, isVehicleNo, normaliseVehicleNo, TRANSPORT_MODE_CODE, VEHICLE_TYPE_CODE } from '@bahi/gst';
import { add, Decimal, money } from '@bahi/service-kit';
import type { DeliveryDoc, SaleDoc } from '../common/schemas';

/** Taxable value plus taxes in GST mode (Rule 138's consignment value); the bill's amount in simple mode. */
export function consignmentValue(s: Pick<SaleDoc, 'gst' | 'amount'>): Decimal {
  const g = s.gst;
  return g ? add(g.taxable_total, g.cgst_total, g.sgst_total, g.igst_total) : money(s.amount);
}

/** getBillDetails' ewaybill: needed above the company's threshold until a number is recorded (never on a cancelled bill). */
export function billEwaybill(s: Pick<SaleDoc, 'gst' | 'amount' | 'ewaybill'> & { cancelled?: unknown }, company: CompanyDetails | null): BillEwaybill {
  const threshold = company?.ewaybill_threshold ?? DEFAULT_EWAYBILL_THRESHOLD;
  const e = s.ewaybill ?? null;
  return {
    needed: !e && !s.cancelled && consignmentValue(s).gt(threshold),
    ewb_no: e?.ewb_no ?? null,
    valid_until: e?.valid_until ?? null,
  };
}

const n = (x: Decimal.Value) => new Decimal(x).toNumber();
const bad = (saleId: number, what: string) => new BadRequestException(`Sale ${saleId} cannot go on an e-way bill yet: ${what}`);
const cut = (s: string, max: number) => s.trim().slice(0, max);

/**
 * One bill of the portal's bulk-upload JSON (keys and types: packages/gst README "E-way bills").
 * 400 naming the field when the portal would refuse the bill for a missing one.
 */
export function ewbBill(s: SaleDoc & { cancelled?: unknown }, company: CompanyDetails, d: DeliveryDoc | null): EwbBill {
  const id = s.saleId;
  const g = s.gst;
  if (!g || !company.gstin) throw bad(id, 'it is not a GST invoice (the portal needs the supplier\'s GSTIN; set GST mode in Setting).');
  if (s.cancelled) throw bad(id, 'the bill is cancelled.');
  if (!company.pincode || !isPincode(company.pincode)) throw bad(id, 'the company\'s pincode is missing; add it in Setting.');
  if (!d) throw bad(id, 'it has no delivery details; fill the delivery form first.');
  const toPin = d.ship_to_pincode || (isPincode(s.customer.postal_code ?? '') ? s.customer.postal_code : '');
  if (!toPin) {
    // A customer saved before GST mode needed a PIN (issue 31) may hold a zip the portal refuses: name them.
    const c = s.customer;
    const pc = (c.postal_code ?? '').trim();
    throw bad(id, c.walkIn
      ? 'ship_to_pincode is missing in the delivery details (the walk-in customer has no PIN code).'
      : pc
        ? `the customer ${c.name} has the PIN code '${pc}', which is not a 6-digit PIN; correct it on the customer (a new bill takes it) or give ship_to_pincode in the delivery details.`
        : `the customer ${c.name} has no PIN code; add it on the customer (a new bill takes it) or give ship_to_pincode in the delivery details.`);
  }
  if (d.distance_km === null || d.distance_km === undefined) throw bad(id, 'distance_km is missing in the delivery details.');
  const mode = d.transport_mode ?? 'road';
  const vehicle = mode === 'road' && isVehicleNo(d.vehicle_number) ? normaliseVehicleNo(d.vehicle_number) : '';
  const transporterId = d.transporter_id && isTransporterId(d.transporter_id) ? d.transporter_id : '';
  if (!vehicle && !transporterId) throw bad(id, 'give a vehicle_number like MH12AB1234 or the transporter_id in the delivery details.');
  // Part B (mode, vehicle or transport document) only when there is one; Part A alone names the transporter.
  const partB = !!vehicle || (mode !== 'road' && !!d.transporter_doc_no);

  const rate = (x: string) => new Decimal(x);
  const items: EwbItem[] = g.lines.map((l, i) => {
    const line = s.lines.find((x) => x.sl_no === l.sl_no);
    const half = rate(l.gst_rate).div(2);
    return {
      itemNo: i + 1,
      productName: cut(line?.product_name ?? '', 100),
      productDesc: cut(line?.product_name ?? '', 100),
      hsnCode: Number(l.hsn_code) || 0,
      quantity: n(l.qty),
      qtyUnit: l.uqc || 'OTH',
      taxableAmount: n(l.taxable_value),
      sgstRate: g.inter_state ? 0 : n(half),
      cgstRate: g.inter_state ? 0 : n(half),
      igstRate: g.inter_state ? n(l.gst_rate) : 0,
      cessRate: 0,
      cessNonAdvol: 0,
    };
  });
  // The HSN carrying the largest taxable value.
  const main = [...g.lines].sort((a, b) => new Decimal(b.taxable_value).cmp(a.taxable_value))[0];
  const from = Number(g.supplier.state_code ?? company.state_code);
  const to = Number(g.place_of_supply);
  return {
    userGstin: company.gstin,
    supplyType: 'O',
    subSupplyType: 1,
    subSupplyDesc: '',
    docType: g.document === 'tax-invoice' ? 'INV' : 'BIL',
    docNo: g.invoice_no,
    docDate: ewbDate(g.invoice_date),
    fromGstin: company.gstin,
    fromTrdName: cut(company.name, 100),
    fromAddr1: cut(company.add1 ?? '', 120),
    fromAddr2: cut(company.add2 ?? '', 120),
    fromPlace: cut(company.place ?? '', 50),
    fromPincode: Number(company.pincode),
    fromStateCode: from,
    actualFromStateCode: from,
    toGstin: g.recipient.gstin ?? 'URP',
    toTrdName: cut(g.recipient.name, 100),
    toAddr1: cut(g.recipient.address[0] ?? '', 120),
    toAddr2: cut(g.recipient.address.slice(1).join(', '), 120),
    toPlace: cut(s.customer.city_or_district || g.recipient.state_name || '', 50),
    toPincode: Number(toPin),
    toStateCode: to,
    actualToStateCode: d.ship_to_state ? Number(d.ship_to_state) : to,
    transType: 1,
    totalValue: n(g.taxable_total),
    cgstValue: n(g.cgst_total),
    sgstValue: n(g.sgst_total),
    igstValue: n(g.igst_total),
    cessValue: 0,
    TotNonAdvolVal: 0,
    OthValue: n(g.round_off),
    totInvValue: n(g.invoice_value),
    transMode: partB ? TRANSPORT_MODE_CODE[mode] : '',
    transDistance: String(d.distance_km),
    transporterId,
    transporterName: cut(d.transporter_name ?? '', 100),
    transDocNo: d.transporter_doc_no ?? '',
    transDocDate: d.transporter_doc_date ? ewbDate(d.transporter_doc_date) : '',
    vehicleNo: vehicle,
    vehicleType: vehicle ? VEHICLE_TYPE_CODE[d.vehicle_type ?? 'regular'] : '',
    mainHsnCode: Number(main?.hsn_code) || 0,
    itemList: items,
  };
}
