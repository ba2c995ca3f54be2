import type { Config } from 'jest';
import { getJestProjectsAsync } from '@nx/jest';

export default async (): Promise<Config> => ({
  projects: await getJestProjectsAsync(),
  // console output of a passing test file is left out (tools/testing/quiet-reporter.cjs)
  reporters: ['<rootDir>/tools/testing/quiet-reporter.cjs', 'summary'],
  // jest reads testTimeout from this root config only: a project's own testTimeout is ignored when the
  // projects run together (`npm test`). The black-box tests start real processes and an embedded
  // PostgreSQL, which on a busy 2-core CI machine takes far longer than jest's 5 s default.
  testTimeout: 120_000,
});
