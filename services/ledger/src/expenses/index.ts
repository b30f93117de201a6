import { BooksController } from '../books/books.controller';
import { OpeningDoc, OpeningSchema } from '../books/opening.schema';
import { ExpenseCategoriesDoc, ExpenseCategoriesSchema, ExpenseChangeDoc, ExpenseChangeSchema, ExpenseDoc, ExpenseSchema } from './expense.schema';
import { ExpensesController } from './expenses.controller';
import { ExpensesService } from './expenses.service';

/** The books (issue 29): opening balances and expenses, wired into the app module in one place each. */
export const booksSchemas = [
  { name: OpeningDoc.name, schema: OpeningSchema },
  { name: ExpenseDoc.name, schema: ExpenseSchema },
  { name: ExpenseChangeDoc.name, schema: ExpenseChangeSchema },
  { name: ExpenseCategoriesDoc.name, schema: ExpenseCategoriesSchema },
];
export const booksControllers = [BooksController, ExpensesController];
export const booksProviders = [ExpensesService];
