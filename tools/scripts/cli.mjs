// `npm run --silent cli -- <command> --json`: builds the CLI when its sources are newer than the
// bundle (build output goes to stderr, stdout carries only the CLI's one JSON object), then runs it
// in this process (a second Node start would cost a few hundred milliseconds of every call). The
// bundle reads its arguments from process.argv.slice(2), as this script received them, and exits
// with its own code.
import { createRequire } from 'node:module';
import { build, bundles, staleBundles } from './bundles.mjs';

if (staleBundles(['cli']).length > 0) {
  const code = await build(['cli'], ['ignore', 2, 2]).done;
  if (code !== 0) process.exit(code);
}
createRequire(import.meta.url)(bundles.cli);
