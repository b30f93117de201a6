import { BadRequestException } from '@nestjs/common';
import { Limits, Money } from '@bahi/service-kit';
import { isCalendarDate, today } from '../common';

/**
 * A rupee figure typed by a manager (opening balance, expense): a number or decimal string with at
 * most 2 decimals, up to Limits.maxAmount; answers the exact decimal string. `min` 'positive'
 * refuses 0 too; 'any' allows below 0 (an overdrawn bank account).
 */
export function rupees(value: unknown, field: string, min: 'positive' | 'zero' | 'any'): string {
  if (value === undefined || value === null || value === '') throw new BadRequestException(`Give the ${field} in rupees.`);
  if ((typeof value !== 'number' && typeof value !== 'string') || !Money.isMoney(value)) throw new BadRequestException(`The ${field} must be a number of rupees, like 1500 or 1500.50.`);
  const d = Money.money(value);
  if (d.decimalPlaces() > 2) throw new BadRequestException(`The ${field} can have at most 2 decimals (paise).`);
  if (min === 'positive' && d.lte(0)) throw new BadRequestException(`The ${field} must be more than 0.`);
  if (min === 'zero' && d.isNegative()) throw new BadRequestException(`The ${field} cannot be below 0.`);
  if (d.abs().greaterThan(Limits.maxAmount)) throw new BadRequestException(`The ${field} must be at most ${Limits.maxAmount}.`);
  return Money.toMoneyString(d);
}

/** A business date YYYY-MM-DD, not after today in India. */
export function pastDate(value: unknown, field: string): string {
  if (!isCalendarDate(value) || value.length !== 10) throw new BadRequestException(`The ${field} must be a date (YYYY-MM-DD).`);
  if (value > today()) throw new BadRequestException(`The ${field} cannot be in the future.`);
  return value;
}

/** Free text of at most `max` characters, trimmed; no control characters. */
export function text(value: unknown, field: string, max: number, required: boolean): string {
  if (value === undefined || value === null) value = '';
  if (typeof value !== 'string') throw new BadRequestException(`The ${field} must be text.`);
  const t = value.trim();
  if (required && !t) throw new BadRequestException(`Give the ${field}.`);
  if (t.length > max) throw new BadRequestException(`The ${field} can be at most ${max} characters.`);
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(t)) throw new BadRequestException(`The ${field} cannot hold control characters.`);
  return t;
}

export const body = (b: unknown): Record<string, unknown> => {
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw new BadRequestException('The request body must be a JSON object.');
  return b as Record<string, unknown>;
};
