declare module 'jsbarcode/bin/barcodes/CODE128/constants' {
  export const BARS: number[];
}
