import { BadRequestException, Body, ConflictException, Controller, Delete, Get, HttpCode, NotFoundException, Param, Post, Put, Query } from '@nestjs/common';
import type { CategoryAddReply, CategoryListReply } from '@bahi/contracts';
import { Positions, Tenant } from '@bahi/service-kit';
import { intParam, pageNo, pages, PAGE_SIZE } from '../common';
import { ProductsService } from '../products/products.service';
import type { Category, CategorySpec } from '../schemas';

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
const MAX_FEATURES = 3;

@Controller()
export class CategoriesController {
  constructor(private readonly products: ProductsService) {}

  private async get(companyId: number, idRaw: string): Promise<Category> {
    const id = intParam('id', idRaw);
    const c = await this.products.categories.findOne({ companyId, id }).lean();
    if (!c) throw new NotFoundException(`Category ${id} not found.`);
    return c;
  }

  /** All categories by name, or one page of them with ?pageNo. */
  @Get('getCategoryList')
  async list(@Tenant() companyId: number, @Query('pageNo') pageRaw: unknown): Promise<CategoryListReply> {
    const all = await this.products.categoryList(companyId);
    const names = new Map(all.map((c) => [c.id, c.name]));
    const rows = all.map((c) => ({ id: c.id, name: c.name, belongs_to: c.belongs_to ?? null, belongs_to_name: c.belongs_to ? (names.get(c.belongs_to) ?? '') : '' }));
    if (pageRaw === undefined || pageRaw === '') return { categoryList: rows, noOfPages: 1 };
    const page = pageNo(pageRaw);
    return { categoryList: rows.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE), noOfPages: pages(rows.length) };
  }

  /** {name, belongs_to, spec_1, default_1, is_number_1, spec_2, ...}: every spec named needs its default. */
  @Post('catagory/add')
  @HttpCode(200)
  @Positions('manager')
  async add(@Tenant() companyId: number, @Body() body: Record<string, unknown>): Promise<CategoryAddReply> {
    if (!body || typeof body !== 'object') throw new BadRequestException('Send the category as a JSON object.');
    const bad = Object.keys(body).filter((k) => !/^(name|belongs_to|spec_\d+|default_\d+|is_number_\d+)$/.test(k));
    if (bad.length) throw new BadRequestException(`Unknown field${bad.length > 1 ? 's' : ''}: ${bad.join(', ')}.`);
    const name = text(body.name);
    if (!name) throw new BadRequestException('Category name is required.');
    if (name.length > 60) throw new BadRequestException('Category name can be at most 60 characters.');
    let belongs_to: number | null = null;
    const parent = text(body.belongs_to);
    if (parent && parent !== 'null' && parent !== '0') {
      belongs_to = intParam('belongs_to', parent);
      if (!(await this.products.categories.exists({ companyId, id: belongs_to }))) throw new BadRequestException(`Parent category ${belongs_to} does not exist.`);
    }
    const ns = [...new Set(Object.keys(body).map((k) => /^(?:spec|default|is_number)_(\d+)$/.exec(k)?.[1]).filter(Boolean).map(Number))].sort((a, b) => a - b);
    const specs: CategorySpec[] = [];
    for (const n of ns) {
      const field = text(body[`spec_${n}`]);
      const def = text(body[`default_${n}`]);
      if (!field) throw new BadRequestException(`Spec ${n}: the spec name is required.`);
      if (!def) throw new BadRequestException(`Spec ${n} (${field}): the default value is required.`);
      if (field.length > 40 || def.length > 60) throw new BadRequestException(`Spec ${n} (${field}) is too long.`);
      if (!/^[\w .\-/()]+$/.test(field)) throw new BadRequestException(`Spec ${n}: the name may use letters, digits, spaces and . - / ( ) only.`);
      if (specs.some((s) => s.field_name.toLowerCase() === field.toLowerCase())) throw new BadRequestException(`Spec ${field} is listed twice.`);
      const isNumRaw = body[`is_number_${n}`];
      const isNum = isNumRaw === true || ['1', 'true'].includes(text(isNumRaw));
      if (isNum && !/^-?\d+(\.\d+)?$/.test(def)) throw new BadRequestException(`Spec ${field}: the default must be a number.`);
      // The first three specs print on labels until the label editor says otherwise.
      specs.push({ field_name: field, default_value: def, is_number: isNum, priority: specs.length < MAX_FEATURES ? specs.length + 1 : 0, alias: field });
    }
    if (await this.products.categories.exists({ companyId, name })) throw new ConflictException(`A category named ${name} already exists.`);
    const id = await this.products.seq.next(companyId, 'category');
    await this.products.categories.create({ companyId, id, name, belongs_to, specs });
    return { success: true, id, message: `Category ${name} created.` };
  }

  @Get('editCatagory/:id')
  async view(@Tenant() companyId: number, @Param('id') idRaw: string) {
    const c = await this.get(companyId, idRaw);
    const parent = c.belongs_to ? await this.products.categories.findOne({ companyId, id: c.belongs_to }).lean() : null;
    const features = c.specs.filter((s) => s.priority >= 1 && s.priority <= 3).sort((a, b) => a.priority - b.priority);
    return {
      category: {
        id: c.id,
        name: c.name,
        belongs_to: c.belongs_to ?? null,
        belongs_to_name: parent?.name ?? '',
        products: await this.products.hasProducts(companyId, c.id),
        ...Object.fromEntries(
          [1, 2, 3].flatMap((i) => [
            [`label_feature_${i}`, features[i - 1]?.field_name ?? ''],
            [`label_feature_alias_${i}`, features[i - 1]?.alias ?? ''],
          ]),
        ),
      },
      category_specs: c.specs,
    };
  }

  /** Refused while products or sub-categories use it (409, {success:false, message}). */
  @Delete('deleteCatagory/:id')
  @Positions('manager')
  async remove(@Tenant() companyId: number, @Param('id') idRaw: string) {
    const c = await this.get(companyId, idRaw);
    const used = await this.products.hasProducts(companyId, c.id);
    if (used) throw new ConflictException({ statusCode: 409, success: false, message: `Cannot delete ${c.name}: ${used} product${used > 1 ? 's use' : ' uses'} it. Move or delete them first.` });
    const children = await this.products.categories.countDocuments({ companyId, belongs_to: c.id });
    if (children) throw new ConflictException({ statusCode: 409, success: false, message: `Cannot delete ${c.name}: ${children} categor${children > 1 ? 'ies belong' : 'y belongs'} to it.` });
    await this.products.categories.deleteOne({ companyId, id: c.id });
    return { success: true, message: `Category ${c.name} deleted.` };
  }

  /** Up to 3 label features (spec names of the category) with the text printed for each. */
  @Put('editCatagory/:id/editLabel')
  @Positions('manager')
  async editLabel(@Tenant() companyId: number, @Param('id') idRaw: string, @Body() body: Record<string, unknown>) {
    const c = await this.get(companyId, idRaw);
    if (!body || typeof body !== 'object') throw new BadRequestException('Send the label features as a JSON object.');
    const bad = Object.keys(body).filter((k) => !/^label_feature_(alias_)?[1-3]$/.test(k));
    if (bad.length) throw new BadRequestException(`Unknown field${bad.length > 1 ? 's' : ''}: ${bad.join(', ')} (at most 3 label features).`);
    // An empty body is a missing form, not "no labels": clearing them sends label_feature_1: ''.
    if (!Object.keys(body).some((k) => /^label_feature_[1-3]$/.test(k))) {
      throw new BadRequestException('Send label_feature_1 to label_feature_3 (an empty one leaves that place unused).');
    }
    const chosen: { field: string; alias: string }[] = [];
    for (const i of [1, 2, 3]) {
      const field = text(body[`label_feature_${i}`]);
      if (!field) continue;
      const spec = c.specs.find((s) => s.field_name === field);
      if (!spec) throw new BadRequestException(`Label feature ${i}: ${field} is not a spec of ${c.name}.`);
      if (chosen.some((x) => x.field === field)) throw new BadRequestException(`Label feature ${field} is chosen twice.`);
      const alias = text(body[`label_feature_alias_${i}`]) || field;
      if (alias.length > 30) throw new BadRequestException(`Label feature ${i}: the print-as text can be at most 30 characters.`);
      chosen.push({ field, alias });
    }
    const specs = c.specs.map((s) => {
      const at = chosen.findIndex((x) => x.field === s.field_name);
      return at >= 0 ? { ...s, priority: at + 1, alias: chosen[at]!.alias } : { ...s, priority: 0 };
    });
    await this.products.categories.updateOne({ companyId, id: c.id }, { $set: { specs } });
    return { success: true, msg: 'Label features saved.' };
  }
}
