// Prints the violations of an Ace report (report.json) one a line — impact, rule, document — and
// exits 1 when there is any, 0 when there is none. ACE_KNOWN (rule titles, comma-separated) names
// violations that are known and open: they are printed as such and do not fail (ace.corpus only).
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
const known = (process.env.ACE_KNOWN ?? '').split(',').filter(Boolean);
const isKnown = (line) => known.some((rule) => line.split(' ')[1] === rule);
const failing = found.filter((line) => !isKnown(line));
console.log(`${name}: ${failing.length} violation(s)` + (found.length > failing.length ? `, ${found.length - failing.length} known` : ''));
for (const line of found) console.log(`  ${isKnown(line) ? '(known) ' : ''}${line}`);
process.exit(failing.length ? 1 : 0);
