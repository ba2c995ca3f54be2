export * from './lib/journal-events';
export * from './lib/journal-writer';
export * from './lib/journal-details';
export * from './lib/journal-metadata';
export * from './lib/journal.decorator';
export * from './lib/journal.interceptor';
export * from './lib/journal-facts';
