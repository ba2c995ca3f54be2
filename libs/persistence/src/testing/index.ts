export * from './test-database';
export * from './factories';
export * from './legacy-ciphertext';
