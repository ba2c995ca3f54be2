import baseConfig from '../../eslint.config.mjs';

export default [
  ...baseConfig,
  {
    // a journaled change runs in its transaction: the app declares it with @JournaledChange
    // (src/http/transactional.ts), never with @Journal alone, whose pairing is only checked at run time
    files: ['**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@twofold/journal',
              importNames: ['Journal'],
              message: 'Declare a journaled handler with @JournaledChange (http/transactional.ts): its event commits with the change.',
            },
          ],
        },
      ],
    },
  },
];
