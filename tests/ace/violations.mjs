// Prints the violations of an Ace report (report.json) one a line — impact, rule, document — and
// exits 1 when there is any, 0 when there is none.
import { readFileSync } from 'node:fs';

const [file, name] = process.argv.slice(2);
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (e) {
  console.log(`${name}: no Ace report (${e.message})`);
  process.exit(1);
}
const found = [];
for (const doc of report.assertions ?? []) {
  for (const a of doc.assertions ?? []) {
    const test = a['earl:test'] ?? {};
    found.push(`${test['earl:impact'] ?? '?'} ${test['dct:title'] ?? '?'} ${doc['earl:testSubject']?.url ?? ''}`);
  }
}
console.log(`${name}: ${found.length} violation(s)`);
for (const line of found) console.log(`  ${line}`);
process.exit(found.length ? 1 : 0);
