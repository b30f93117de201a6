export * from './services';
export * from './auth';
export * from './identity';
export * from './inventory';
export * from './ledger';
export * from './sales';
export * from './subjects';
export * from './routes';
