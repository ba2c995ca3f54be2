export * from './lib/domain-error';
export * from './lib/paging';
export * from './lib/past-day';
export * from './lib/groups';
export * from './lib/clock';
export * from './lib/enrollment';
export * from './lib/administrators';
