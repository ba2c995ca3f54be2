import baseConfig from '../../eslint.config.mjs';

export default [
  ...baseConfig,
  {
    // the bundle's configuration is CommonJS, read by webpack-cli
    files: ['bundle.config.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
];
