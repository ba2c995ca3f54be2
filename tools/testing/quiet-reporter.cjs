// Jest's default reporter, except that what a test file wrote to the console (measurements, notes of
// skipped checks) is shown only when that file failed: a passing run is one line per file and the
// summary, and a failing file still shows everything it wrote.
const { DefaultReporter } = require('@jest/reporters');

class QuietReporter extends DefaultReporter {
  onTestResult(test, testResult, aggregatedResults) {
    const failed = testResult.numFailingTests > 0 || testResult.testExecError !== undefined;
    super.onTestResult(test, failed ? testResult : { ...testResult, console: undefined }, aggregatedResults);
  }
}

module.exports = QuietReporter;
