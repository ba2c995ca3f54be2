/**
 * The version of Twofold, as in package.json and CHANGELOG.md: semantic versioning of what operators
 * and clients see (the HTTP API, the CLI, the settings, the database schema). GET /ping and the CLI's
 * `--version` show it; version.spec.ts fails when it and package.json disagree.
 */
export const TWOFOLD_VERSION = '1.0.0';
