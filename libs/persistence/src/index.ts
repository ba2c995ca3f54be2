export * from './lib/entities';
export * from './lib/migrations';
export * from './lib/data-source';
export * from './lib/transaction-context';
export * from './lib/secret-cipher';
export * from './lib/credentials';
export * from './lib/embedded-postgres';
export * from './lib/repositories';
