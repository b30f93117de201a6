/** Streamed CSV and XLSX reading and writing for imports and list exports. */
export { cellText, numberText, openTable, sniffFormat, TabularError, type OpenTable, type TableFormat, type TableRow } from './read';
export { DEFAULT_LIMITS, type ReadLimits } from './limits';
export { readInWorker, type WorkerReadOptions } from './worker-read';
export { CONTENT_TYPES, csvCell, csvLine, csvWriter, exportFileName, exportFormat, indianDate, sendTable, tableWriter, xlsxWriter, type DownloadResponse, type CellValue, type Column, type ColumnType, type TableWriter } from './write';
export { checkMapping, guessMapping, mapRow, type ColumnMapping, type ImportField } from './mapping';
export { ImportError, ImportSessions, type ImportHandler, type ImportReportShape, type ImportSessionsOptions, type ImportStatusShape, type RowError, type RowOutcome } from './import-session';
export { formatParam, importHttp, uploadedFile, type Upload } from './nest';
