export * from './services';
export * from './auth';
export * from './identity';
export * from './subjects';
export * from './routes';
