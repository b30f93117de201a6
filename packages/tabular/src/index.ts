/** Streamed CSV and XLSX reading and writing (filled in by the import/export work). */
export {};
