const nxPreset = require('@nx/jest/preset').default;

// otplib 13 and jose 6 ship ESM only; ts-jest transpiles them (allowJs in each tsconfig.spec.json).
module.exports = {
  ...nxPreset,
  // a hang guard only (no test asserts time), for one project run alone (`npm test` takes the root
  // config's): on a busy 2-core machine starting an app on a fresh database took over jest's default 5 s
  testTimeout: 30_000,
  transformIgnorePatterns: ['node_modules/(?!.*(@scure/base|@noble/hashes|@otplib|otplib|jose)/)'],
};
