export * from './unique-violation';
export * from './accounts.repository';
export * from './administrators.repository';
export * from './groups.repository';
export * from './resources.repository';
export * from './journal.repository';
export * from './enrollment-tokens.repository';
