export * from './lib/otp';
