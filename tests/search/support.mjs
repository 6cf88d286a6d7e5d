// Shared by the search client tests: a tiny test runner, an index read from files, the stored
// sections, a brute-force oracle for what a query means, and the C++/JavaScript token comparison.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

export function loadSearch(searchJs) {
  return createRequire(import.meta.url)(path.resolve(searchJs));
}

export function runner() {
  const r = { passed: 0, failed: 0 };
  r.test = (name, fn) =>
    Promise.resolve()
      .then(fn)
      .then(
        () => ++r.passed,
        (e) => {
          ++r.failed;
          console.error("FAIL " + name + "\n  " + String(e.message).split("\n").join("\n  "));
        }
      );
  r.finish = (label) => {
    console.log(`${label}: ${r.passed} passed, ${r.failed} failed`);
    process.exit(r.failed ? 1 : 0);
  };
  return r;
}

// An index whose fetches are files of `indexDir`, counting the bytes read.
export function openIndex(S, indexDir, edition) {
  const counter = { bytes: 0, files: [] };
  const index = new S.SearchIndex(edition + "/", async (url) => {
    const data = fs.readFileSync(path.join(indexDir, url));
    counter.bytes += data.length;
    counter.files.push(url);
    return data;
  });
  return { index, counter };
}

// Every result of a query, a few at a time.
export async function allResults(index, query) {
  const session = await index.search(query);
  const out = [];
  for (let page; (page = await session.next(4)).length; ) out.push(...page);
  if (!session.done) throw new Error("session not done after its last page");
  return out;
}

export const anchorOf = (r) => (r.href.includes("#") ? r.href.split("#")[1] : "top");

// Every section's stored title and text, read back from the index files.
export async function sectionsOf(S, indexDir, edition) {
  const { index } = openIndex(S, indexDir, edition);
  const docs = await index.docs();
  const out = [];
  for (let s = 0; s < docs.sections.length; ++s)
    out.push({ anchor: docs.sections[s][1] || "top", title: docs.sections[s][2], text: await index.sectionText(s) });
  return out;
}

// The meaning of a query without any index: every word term starts a word of the title or the text;
// every CJK run is a substring of one of them.
const scanned = new WeakMap();
export function bruteForce(S, sections, query) {
  const terms = S.queryTerms(query);
  if (!terms.length) return [];
  const fields = (s) => {
    if (!scanned.has(s))
      scanned.set(
        s,
        [s.title, s.text].map((f) => ({
          folded: S.fold(f),
          words: S.tokenize(f).filter((w) => w.kind === "word").map((w) => w.text),
        }))
      );
    return scanned.get(s);
  };
  return sections
    .filter((s) =>
      terms.every((t) =>
        fields(s).some((f) =>
          t.kind === "cjk" ? f.folded.includes(t.text) : f.words.some((w) => w.startsWith(t.text))
        )
      )
    )
    .map((s) => s.anchor);
}

// null when the C++ tokens (<edition>.tokens, written by search_index_tool) equal the JavaScript
// tokens of every stored title and text; else where they first differ.
export async function tokenDifference(S, indexDir, edition) {
  const dump = (tokens) => tokens.map((t) => t.kind + "\t" + t.text + "\n").join("");
  const cpp = fs.readFileSync(path.join(indexDir, edition + ".tokens"), "utf8").split("\n");
  let js = "";
  for (const s of await sectionsOf(S, indexDir, edition))
    js += dump(S.tokenize(s.title)) + "|\n" + dump(S.tokenize(s.text)) + "--\n";
  const b = js.split("\n");
  const i = cpp.findIndex((line, k) => line !== b[k]);
  if (i === -1 && cpp.length === b.length) return null;
  return `first difference at token line ${i} of ${cpp.length}: C++ ${JSON.stringify(cpp[i])} / JS ${JSON.stringify(b[i])}`;
}

// Deterministic queries drawn from the texts: CJK substrings of 1–6 characters, bigrams chained
// through a shared character ("ab" + "bc", which often do not occur together), and word prefixes.
export function generatedQueries(S, sections, count, seed = 42) {
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const pick = (n) => Math.floor(rnd() * n);
  const terms = sections.flatMap((s) => S.queryTerms(s.text));
  const runs = terms.filter((t) => t.kind === "cjk" && t.text.length >= 2).map((t) => Array.from(t.text));
  const words = terms.filter((t) => t.kind === "word").map((t) => Array.from(t.text));
  const bigrams = [...new Set(runs.flatMap((r) => r.slice(1).map((c, i) => r[i] + c)))];
  const out = [];
  for (let k = 0; k < count; ++k) {
    const kind = k % 3;
    if (kind === 0 && runs.length) {
      const run = runs[pick(runs.length)];
      const len = 1 + pick(Math.min(6, run.length));
      const at = pick(run.length - len + 1);
      out.push(run.slice(at, at + len).join(""));
    } else if (kind === 1 && bigrams.length) {
      const [a, b] = Array.from(bigrams[pick(bigrams.length)]);
      const next = bigrams.filter((x) => x.startsWith(b));
      out.push(a + next[pick(next.length)]);
    } else if (words.length) {
      const w = words[pick(words.length)];
      out.push(w.slice(0, 1 + pick(w.length)).join(""));
    }
  }
  return out;
}
