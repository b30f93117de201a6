// The HTTP face of imports and exports, shared by every service's controllers.
import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import { ImportError } from './import-session';
import type { TableFormat } from './read';
import { exportFormat } from './write';

/** `?format=` of an export: csv (the default) or xlsx; a 400 with the sentence otherwise. */
export function formatParam(v: unknown): TableFormat {
  try {
    return exportFormat(v);
  } catch (err) {
    throw new BadRequestException((err as Error).message);
  }
}

/** An import's failure as the HTTP answer the user reads; anything else is rethrown as it is. */
export function importHttp(err: unknown): never {
  if (err instanceof ImportError) {
    if (err.status === 404) throw new NotFoundException(err.message);
    if (err.status === 409) throw new ConflictException(err.message);
    throw new BadRequestException(err.message);
  }
  throw err;
}

/** A multipart upload's file as multer hands it over. */
export type Upload = { fieldname: string; originalname: string; buffer: Buffer };

/** The upload's form field "file"; a 400 saying so when it is missing. */
export function uploadedFile(files: Upload[] | undefined): Upload {
  const file = files?.find((f) => f.fieldname === 'file');
  if (!file) throw new BadRequestException('Choose a CSV or XLSX file to upload (form field "file").');
  return file;
}
