import nx from '@nx/eslint-plugin';

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  {
    ignores: ['**/dist', '**/out-tsc'],
  },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.jsx'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: ['^.*/eslint(\\.base)?\\.config\\.[cm]?[jt]s$'],
          // DESIGN.md: otp and domain depend on nothing of ours; persistence on domain; journal on
          // persistence and domain; apps on libs; e2e tests only on the test helpers of persistence.
          depConstraints: [
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:persistence', onlyDependOnLibsWithTags: ['type:domain'] },
            { sourceTag: 'type:journal', onlyDependOnLibsWithTags: ['type:persistence', 'type:domain'] },
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: ['type:journal', 'type:persistence', 'type:domain', 'type:util'],
            },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:persistence', 'type:domain'] },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.cts', '**/*.mts', '**/*.js', '**/*.jsx', '**/*.cjs', '**/*.mjs'],
    // Override or add rules here
    rules: {},
  },
];
