module.exports = {
  displayName: 'api-e2e',
  preset: '../../jest.preset.js',
  testEnvironment: 'node',
  globalSetup: '../../tools/testing/jest-global-setup.ts',
  globalTeardown: '../../tools/testing/jest-global-teardown.ts',
  transform: {
    '^.+\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
  },
  moduleFileExtensions: ['ts', 'js'],
  // black-box runs start real processes: one file at a time keeps the two cores for them
  maxWorkers: 1,
  testTimeout: 120000,
};
