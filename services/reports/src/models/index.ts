import { books } from './books';
import { cash } from './cash';
import { daybook } from './daybook';
import type { ReadModel } from './model';
import { parties } from './parties';
import { profit } from './profit';
import { registers } from './registers';
import { stock } from './stock';

export type { ReadModel } from './model';

/**
 * Every read model, in the order the projector folds a fact into them (profit before stock: a
 * product change moves its profit rows from the category the product had).
 */
export const MODELS: readonly ReadModel[] = [registers, cash, books, daybook, parties, profit, stock];
