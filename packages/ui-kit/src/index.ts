import './styles.css';

export * from './api';
export * from './idempotency';
export * from './documents';
export * from './session';
export * from './format';
export * from './paging';
export * from './user';
export * from './alert';
export * from './confirm';
export * from './Modal';
export * from './controls';
export * from './PagedTable';
export * from './RemoteBoundary';
export * from './pageHeader';
export * from './SuggestInput';
export * from './party';
export * from './gstFields';
