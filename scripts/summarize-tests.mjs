// Adds up the JSON reports of the test runners (Vitest per workspace, Playwright), names every
// failed test with the first lines of its failure, and prints one closing line:
// "tests: N passed, N failed, N skipped".
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
/** @type {{ where: string; name: string; message: string }[]} */
const failures = [];

const firstLines = (text) =>
  String(text ?? "")
    .split("\n")
    .slice(0, 6)
    .join("\n    ");

/** Playwright nests suites; a spec is failed when it is not ok. */
function playwrightFailures(suite, where) {
  for (const spec of suite.specs ?? []) {
    if (spec.ok) continue;
    const result = spec.tests?.flatMap((t) => t.results ?? []).find((r) => r.error);
    failures.push({
      where: `${where} ${spec.file}:${spec.line}`,
      name: spec.title,
      message: result?.error?.message,
    });
  }
  for (const child of suite.suites ?? []) playwrightFailures(child, where);
}

for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
  const report = JSON.parse(readFileSync(join(dir, file), "utf8"));
  const where = file.replace(/\.json$/, "");
  if (report.stats) {
    // Playwright
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    for (const suite of report.suites ?? []) playwrightFailures(suite, where);
  } else {
    // Vitest: a file that failed to load has no tests but counts as a failure.
    passed += report.numPassedTests;
    failed += report.numFailedTests + (report.numFailedTestSuites > 0 && report.numFailedTests === 0 ? 1 : 0);
    skipped += report.numPendingTests + report.numTodoTests;
    for (const testFile of report.testResults ?? []) {
      const path = String(testFile.name).replace(/^.*?\/(apps|packages)\//, "$1/");
      const failedTests = (testFile.assertionResults ?? []).filter((t) => t.status === "failed");
      for (const test of failedTests) {
        failures.push({ where: `${where} ${path}`, name: test.fullName, message: test.failureMessages?.[0] });
      }
      if (testFile.status === "failed" && failedTests.length === 0) {
        failures.push({
          where: `${where} ${path}`,
          name: "(the file failed to run)",
          message: testFile.message,
        });
      }
    }
  }
}
for (const failure of failures) {
  console.log(`\nFAILED ${failure.where}\n  ${failure.name}\n    ${firstLines(failure.message)}`);
}
console.log(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
