module.exports = {
  displayName: 'journal',
  preset: '../../jest.preset.js',
  testEnvironment: 'node',
  globalSetup: '../../tools/testing/jest-global-setup.ts',
  globalTeardown: '../../tools/testing/jest-global-teardown.ts',
  transform: {
    '^.+\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
  },
  moduleFileExtensions: ['ts', 'js', 'html'],
  coverageDirectory: '../../coverage/libs/journal',
};
