export * from './lib/journal';
