import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import { LOGGER, NatsClient, seedDemoCompanyWhenReady, SequenceService } from '@bahi/service-kit';
import { stockLevel, taxMultiplier, toMilli, toPaise } from '../common';
import { Decimal } from '@bahi/service-kit';
import { ProductsService, wordsOf } from '../products/products.service';
import type { CategorySpec } from '../schemas';
import { StockService } from '../stock/stock.service';

/** The demo company identity creates on first start (services/identity/src/seed). */

const spec = (field_name: string, default_value: string, is_number: boolean, priority: number): CategorySpec => ({ field_name, default_value, is_number, priority, alias: field_name });

const CATEGORIES: { name: string; parent?: string; specs: CategorySpec[] }[] = [
  { name: 'Plywood', specs: [spec('Thickness mm', '18', true, 1), spec('Size', '8x4 ft', false, 2), spec('Grade', 'MR', false, 3)] },
  { name: 'Marine Plywood', parent: 'Plywood', specs: [spec('Thickness mm', '18', true, 1), spec('Size', '8x4 ft', false, 2), spec('Grade', 'BWP', false, 3)] },
  { name: 'Laminates', specs: [spec('Thickness mm', '1', true, 1), spec('Finish', 'Suede', false, 2), spec('Shade', 'Walnut', false, 3)] },
  { name: 'Hardware', specs: [spec('Material', 'Steel', false, 1), spec('Size', '4 in', false, 2)] },
  { name: 'Adhesives', specs: [spec('Pack', '1 kg', false, 1)] },
  { name: 'Paints', specs: [spec('Shade', 'White', false, 1), spec('Pack', '1 L', false, 2)] },
];

type P = [cat: string, brand: string, name: string, mrp: string, cp: string, unit: string, stock: string, min: string, def: string, specs: string[], hsn: string];
const PRODUCTS: P[] = [
  ['Plywood', 'Greenply', 'Greenply Club 18mm MR Plywood', '2850', '2380', 'sheet', '42', '10', '60', ['18', '8x4 ft', 'MR'], '4412'],
  ['Plywood', 'Greenply', 'Greenply Club 12mm MR Plywood', '2150', '1790', 'sheet', '35', '10', '50', ['12', '8x4 ft', 'MR'], '4412'],
  ['Plywood', 'Greenply', 'Greenply Ecotec 6mm Plywood', '980', '810', 'sheet', '8', '10', '40', ['6', '8x4 ft', 'MR'], '4412'],
  ['Plywood', 'Century', 'CenturyPly Sainik 18mm', '2450', '2060', 'sheet', '55', '12', '50', ['18', '8x4 ft', 'MR'], '4412'],
  ['Plywood', 'Century', 'CenturyPly Sainik 12mm', '1850', '1540', 'sheet', '24', '12', '50', ['12', '8x4 ft', 'MR'], '4412'],
  ['Plywood', 'Century', 'CenturyPly Club Prime 19mm', '3650', '3090', 'sheet', '14', '6', '30', ['19', '8x4 ft', 'BWP'], '4412'],
  ['Plywood', 'Kitply', 'Kitply Gold 18mm', '2650', '2230', 'sheet', '18', '8', '40', ['18', '8x4 ft', 'MR'], '4412'],
  ['Plywood', 'Kitply', 'Kitply Gold 9mm', '1380', '1150', 'sheet', '5', '8', '30', ['9', '8x4 ft', 'MR'], '4412'],
  ['Plywood', 'Local', 'Commercial Plywood 18mm 7x4', '1450', '1180', 'sheet', '60', '15', '80', ['18', '7x4 ft', 'Commercial'], '4412'],
  ['Plywood', 'Local', 'Commercial Plywood 4mm', '520', '410', 'sheet', '90', '20', '80', ['4', '8x4 ft', 'Commercial'], '4412'],
  ['Marine Plywood', 'Greenply', 'Greenply Gold Marine 18mm', '4150', '3520', 'sheet', '12', '5', '25', ['18', '8x4 ft', 'BWP'], '4412'],
  ['Marine Plywood', 'Century', 'CenturyPly Architect Marine 12mm', '3250', '2740', 'sheet', '7', '5', '20', ['12', '8x4 ft', 'BWP'], '4412'],
  ['Marine Plywood', 'Kitply', 'Kitply Marine 19mm', '3980', '3360', 'sheet', '3', '4', '20', ['19', '8x4 ft', 'BWR'], '4412'],
  ['Laminates', 'Merino', 'Merino 1mm Walnut Suede Laminate', '1250', '980', 'sheet', '70', '20', '80', ['1', 'Suede', 'Walnut'], '4823'],
  ['Laminates', 'Merino', 'Merino 1mm Frosty White Gloss', '1350', '1060', 'sheet', '45', '20', '80', ['1', 'Gloss', 'Frosty White'], '4823'],
  ['Laminates', 'Greenlam', 'Greenlam 1mm Teak Matt', '1180', '930', 'sheet', '38', '15', '60', ['1', 'Matt', 'Teak'], '4823'],
  ['Laminates', 'Greenlam', 'Greenlam 0.8mm Ivory', '890', '690', 'sheet', '12', '15', '60', ['0.8', 'Suede', 'Ivory'], '4823'],
  ['Laminates', 'Century', 'Century Laminate 1mm Oak Texture', '1150', '910', 'sheet', '26', '15', '50', ['1', 'Texture', 'Oak'], '4823'],
  ['Laminates', 'Royale Touche', 'Royale Touche 1mm Grey Stone', '1480', '1170', 'sheet', '9', '10', '40', ['1', 'Stone', 'Grey'], '4823'],
  ['Hardware', 'Hettich', 'Hettich Soft Close Hinge 0 Crank', '320', '240', 'pcs', '240', '50', '300', ['Steel', '35 mm'], '8302'],
  ['Hardware', 'Hettich', 'Hettich Soft Close Hinge 8 Crank', '330', '248', 'pcs', '180', '50', '300', ['Steel', '35 mm'], '8302'],
  ['Hardware', 'Hettich', 'Hettich Telescopic Channel 18 in', '680', '520', 'pair', '60', '20', '100', ['Steel', '18 in'], '8302'],
  ['Hardware', 'Ebco', 'Ebco Telescopic Channel 14 in', '540', '410', 'pair', '75', '20', '100', ['Steel', '14 in'], '8302'],
  ['Hardware', 'Ebco', 'Ebco Cabinet Handle 96mm SS', '145', '98', 'pcs', '320', '80', '400', ['SS', '96 mm'], '8302'],
  ['Hardware', 'Godrej', 'Godrej Ultra Mortise Lock', '1890', '1520', 'pcs', '16', '5', '30', ['Brass', 'Standard'], '8301'],
  ['Hardware', 'Godrej', 'Godrej Cupboard Lock 6 Lever', '420', '330', 'pcs', '40', '10', '60', ['Steel', '6 lever'], '8301'],
  ['Hardware', 'Dorset', 'Dorset Tower Bolt 6 in SS', '165', '118', 'pcs', '150', '40', '200', ['SS', '6 in'], '8302'],
  ['Hardware', 'Local', 'Wood Screw 1.5 in (box of 100)', '120', '82', 'box', '85', '30', '150', ['Steel', '1.5 in'], '7318'],
  ['Hardware', 'Local', 'Wire Nails 2 in', '95', '72', 'kg', '62.5', '20', '100', ['Iron', '2 in'], '7317'],
  ['Hardware', 'Local', 'Wire Nails 1 in', '105', '80', 'kg', '18.25', '20', '100', ['Iron', '1 in'], '7317'],
  ['Hardware', 'Local', 'Edge Band Tape 22mm Walnut', '6.5', '4.2', 'metre', '1250', '300', '2000', ['PVC', '22 mm'], '3920'],
  ['Hardware', 'Ozone', 'Ozone Glass Door Hinge', '560', '430', 'pcs', '22', '10', '40', ['SS', 'Standard'], '8302'],
  ['Hardware', 'Hafele', 'Hafele Drawer Slide Soft Close 20 in', '1450', '1130', 'pair', '11', '8', '30', ['Steel', '20 in'], '8302'],
  ['Adhesives', 'Fevicol', 'Fevicol SH 1 kg', '385', '318', 'pcs', '96', '24', '120', ['1 kg'], '3506'],
  ['Adhesives', 'Fevicol', 'Fevicol SH 5 kg', '1780', '1490', 'bucket', '30', '10', '40', ['5 kg'], '3506'],
  ['Adhesives', 'Fevicol', 'Fevicol Marine 1 kg', '520', '430', 'pcs', '48', '12', '60', ['1 kg'], '3506'],
  ['Adhesives', 'Fevicol', 'Fevicol HeatX 1 kg', '610', '505', 'pcs', '6', '12', '40', ['1 kg'], '3506'],
  ['Adhesives', 'Araldite', 'Araldite Standard 180 g', '260', '205', 'pcs', '54', '15', '60', ['180 g'], '3506'],
  ['Adhesives', 'Pidilite', 'Fevikwik 20 g', '55', '41', 'pcs', '210', '50', '250', ['20 g'], '3506'],
  ['Adhesives', 'Pidilite', 'M-Seal Regular 100 g', '85', '64', 'pcs', '140', '40', '200', ['100 g'], '3506'],
  ['Paints', 'Asian Paints', 'Asian Paints Apcolite Enamel White 1 L', '465', '380', 'pcs', '36', '10', '50', ['White', '1 L'], '3208'],
  ['Paints', 'Asian Paints', 'Asian Paints Apcolite Enamel Black 1 L', '465', '380', 'pcs', '14', '10', '50', ['Black', '1 L'], '3208'],
  ['Paints', 'Asian Paints', 'Asian Paints Wood Primer 4 L', '1320', '1090', 'pcs', '9', '5', '20', ['Pink', '4 L'], '3208'],
  ['Paints', 'Berger', 'Berger Luxol Hi-Gloss Enamel 1 L', '440', '360', 'pcs', '28', '10', '40', ['White', '1 L'], '3208'],
  ['Paints', 'Berger', 'Berger Melamine Gold Sealer 1 L', '620', '510', 'pcs', '4', '6', '24', ['Clear', '1 L'], '3208'],
  ['Paints', 'Nerolac', 'Nerolac Thinner 1 L', '210', '165', 'pcs', '50', '15', '60', ['Clear', '1 L'], '3814'],
  ['Paints', 'Asian Paints', 'Asian Paints Touchwood PU Gloss 1 L', '980', '810', 'pcs', '11', '6', '24', ['Clear', '1 L'], '3208'],
  ['Paints', 'Local', 'Sand Paper 120 grit', '12', '7.5', 'pcs', '600', '200', '1000', ['Brown', '1 sheet'], '6805'],
  ['Paints', 'Local', 'Paint Brush 2 in', '75', '52', 'pcs', '85', '30', '120', ['Black', '2 in'], '9603'],
  ['Paints', 'Local', 'Wood Putty 1 kg', '180', '135', 'pcs', '0', '10', '40', ['Teak', '1 kg'], '3214'],
];

/**
 * The catalogue of the demo company: on first start (unless BAHI_DEMO=0), once identity
 * confirms company 1 is 'Demo Traders'. A marker document makes it run at most once, so
 * deleting demo products later sticks.
 */
@Injectable()
export class DemoSeedService implements OnApplicationBootstrap {
  constructor(
    @InjectConnection() private readonly conn: Connection,
    private readonly products: ProductsService,
    private readonly stock: StockService,
    private readonly nats: NatsClient,
    private readonly seq: SequenceService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap() {
    seedDemoCompanyWhenReady(this.nats, (companyId) => this.seed(companyId), { what: 'Demo catalogue', log: this.logger });
  }

  /** Seeds the demo catalogue into `companyId`; false when it was seeded before. */
  async seed(companyId: number): Promise<boolean> {
    const marks = this.conn.collection<{ companyId: number; name: string }>('seed_marks');
    await marks.createIndex({ companyId: 1, name: 1 }, { unique: true });
    try {
      await marks.insertOne({ companyId, name: 'demo-catalogue' });
    } catch (err) {
      if ((err as { code?: number }).code === 11000) return false;
      throw err;
    }
    const ids = new Map<string, number>();
    for (const c of CATEGORIES) {
      const id = await this.seq.next(companyId, 'category');
      ids.set(c.name, id);
      await this.products.categories.create({ companyId, id, name: c.name, belongs_to: c.parent ? ids.get(c.parent)! : null, specs: c.specs });
    }
    const opening: { product_id: number; quantity: string; rate: string }[] = [];
    for (const [cat, brand, name, mrp, cp, unit, stock, min, def, values, hsn] of PRODUCTS) {
      const product_id = await this.seq.next(companyId, 'product');
      const category = CATEGORIES.find((c) => c.name === cat)!;
      const minM = toMilli(new Decimal(min));
      const defM = toMilli(new Decimal(def));
      await this.products.createProduct(this.stock, {
        companyId,
        product_id,
        product_name: name,
        words: wordsOf(name, brand),
        brand_name: brand,
        category: ids.get(cat)!,
        mrp_p: toPaise(new Decimal(mrp)),
        cp_p: toPaise(new Decimal(cp)),
        unit,
        ppq_m: 1000,
        stock_m: 0,
        min_m: minM,
        def_m: defM,
        level: stockLevel(0, minM, defM),
        tax: taxMultiplier(18),
        active: 1,
        specs: Object.fromEntries(category.specs.map((s, i) => [s.field_name, values[i] ?? s.default_value])),
        barcode: `89012${String(100000 + product_id)}`,
        hsn_code: hsn,
      });
      await this.products.rememberBrandAndUnit(companyId, brand, unit);
      if (new Decimal(stock).greaterThan(0)) opening.push({ product_id, quantity: stock, rate: cp });
    }
    // Opening stock arrives as one purchase-like adjustment so history shows where it came from.
    await this.stock.apply(companyId, { kind: 'adjustment', id: await this.seq.next(companyId, 'adjustment') }, opening);
    this.logger.info(`Demo catalogue seeded for company ${companyId}: ${CATEGORIES.length} categories, ${PRODUCTS.length} products.`);
    return true;
  }
}
