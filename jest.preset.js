const nxPreset = require('@nx/jest/preset').default;

// otplib 13 and jose 6 ship ESM only; ts-jest transpiles them (allowJs in each tsconfig.spec.json).
module.exports = {
  ...nxPreset,
  transformIgnorePatterns: ['node_modules/(?!.*(@scure/base|@noble/hashes|@otplib|otplib|jose)/)'],
};
