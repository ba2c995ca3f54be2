import type { Config } from 'jest';
import { getJestProjectsAsync } from '@nx/jest';
import { availableParallelism } from 'node:os';

export default async (): Promise<Config> => ({
  projects: await getJestProjectsAsync(),
  // console output of a passing test file is left out (tools/testing/quiet-reporter.cjs)
  reporters: ['<rootDir>/tools/testing/quiet-reporter.cjs', 'summary'],
  // jest reads testTimeout from this root config only: a project's own testTimeout is ignored when the
  // projects run together (`npm test`). The black-box tests start real processes and an embedded
  // PostgreSQL, which on a busy 2-core CI machine takes far longer than jest's 5 s default.
  testTimeout: 120_000,
  // most test files spend their time waiting on PostgreSQL and on processes they start, so one worker
  // per core keeps a 2-core machine busy where jest's default (cores - 1) left one core idle; at most 4,
  // so that the test applications' connection pools stay well inside PostgreSQL's 100 connections
  maxWorkers: Math.min(4, Math.max(2, availableParallelism())),
});
