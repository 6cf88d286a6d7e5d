// The search client (website/search.js) in Node against indexes the C++ side wrote from the fixture
// chapters: tokens agree with C++ on every section, the queries in fixtures/queries.txt find what they
// should, every query agrees with a brute-force scan of the texts, snippets are highlighted and
// escaped, and a query downloads only part of the index.
//
//   node query_test.mjs <website/search.js> <tests/search/fixtures> <index dir from search_index_tool>
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const [searchJs, fixtures, indexDir] = process.argv.slice(2);
const S = createRequire(import.meta.url)(path.resolve(searchJs));
const EDITIONS = ["zh", "en", "ru"];

let failures = 0;
let passed = 0;
function test(name, fn) {
  return Promise.resolve()
    .then(fn)
    .then(
      () => ++passed,
      (e) => {
        ++failures;
        console.error("FAIL " + name + "\n  " + String(e.message).split("\n").join("\n  "));
      }
    );
}

// An index whose fetches are files of the index directory, counting the bytes read.
function openIndex(edition) {
  const counter = { bytes: 0, files: [] };
  const index = new S.SearchIndex(edition + "/", async (url) => {
    const data = fs.readFileSync(path.join(indexDir, url));
    counter.bytes += data.length;
    counter.files.push(url);
    return data.toString("utf8");
  });
  return { index, counter };
}

async function all(index, query) {
  const session = await index.search(query);
  const out = [];
  for (let page; (page = await session.next(4)).length; ) out.push(...page);
  assert.ok(session.done);
  return out;
}

const anchorOf = (r) => (r.href.includes("#") ? r.href.split("#")[1] : "top");

// Every section's stored title and text, read back from the index files.
async function sectionsOf(edition) {
  const { index } = openIndex(edition);
  const docs = await index.docs();
  const out = [];
  for (let s = 0; s < docs.sections.length; ++s)
    out.push({ anchor: docs.sections[s][1] || "top", title: docs.sections[s][2], text: await index.sectionText(s) });
  return out;
}

// The meaning of a query without any index: every word term starts a word of the title or the text;
// every CJK run is a substring of one of them.
function bruteForce(sections, query) {
  const terms = S.queryTerms(query);
  if (!terms.length) return [];
  return sections
    .filter((s) =>
      terms.every((t) =>
        [s.title, s.text].some((field) => {
          const f = S.fold(field);
          if (t.kind === "cjk") return f.includes(t.text);
          return S.tokenize(field).some((w) => w.kind === "word" && w.text.startsWith(t.text));
        })
      )
    )
    .map((s) => s.anchor);
}

function tokenDump(tokens) {
  return tokens.map((t) => t.kind + "\t" + t.text + "\n").join("");
}

// --- The shared tokeniser cases ---
await test("tokens.txt cases", () => {
  const lines = fs.readFileSync(path.join(fixtures, "tokens.txt"), "utf8").split("\n");
  const cases = [];
  for (const line of lines) {
    if (line.startsWith("> ")) cases.push({ input: line.slice(2), expected: [] });
    else if (line && !line.startsWith("#") && cases.length) cases[cases.length - 1].expected.push(line);
  }
  assert.ok(cases.length >= 10);
  for (const c of cases)
    assert.deepEqual(S.tokenize(c.input).map((t) => t.kind + " " + t.text), c.expected, "input: " + c.input);
});

// --- C++ and JavaScript tokenise every stored section identically ---
for (const edition of EDITIONS) {
  await test("tokens agree with C++: " + edition, async () => {
    const cpp = fs.readFileSync(path.join(indexDir, edition + ".tokens"), "utf8");
    let js = "";
    for (const s of await sectionsOf(edition))
      js += tokenDump(S.tokenize(s.title)) + "|\n" + tokenDump(S.tokenize(s.text)) + "--\n";
    const a = cpp.split("\n");
    const b = js.split("\n");
    const i = a.findIndex((line, k) => line !== b[k]);
    assert.ok(i === -1 && a.length === b.length, `first difference at token line ${i}: C++ ${a[i]} / JS ${b[i]}`);
  });
}

// --- The fixture queries ---
const sectionsByEdition = {};
for (const e of EDITIONS) sectionsByEdition[e] = await sectionsOf(e);

const queries = fs
  .readFileSync(path.join(fixtures, "queries.txt"), "utf8")
  .split("\n")
  .filter((l) => l.trim() && !l.startsWith("#"))
  .map((l) => l.split("|").map((x) => x.trim()));
for (const [edition, query, expected, first] of queries) {
  await test(`${edition}: ${query}`, async () => {
    const { index } = openIndex(edition);
    const results = await all(index, query);
    const got = results.map(anchorOf);
    const want = expected === "-" ? [] : expected.split(/\s+/);
    assert.deepEqual([...got].sort(), [...want].sort(), "sections found");
    assert.deepEqual([...got].sort(), bruteForce(sectionsByEdition[edition], query).sort(), "brute force");
    if (first) assert.equal(got[0], first, "first result");
    for (const r of results) {
      assert.match(r.snippetHtml + r.titleHtml, /<mark>/, "something is highlighted in " + r.href);
      assert.ok(r.href.startsWith("ch01.html"), r.href);
    }
  });
}

// --- Many more queries, each checked against the brute-force scan ---
function* random(seed) {
  for (;;) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    yield seed / 2 ** 32;
  }
}
await test("generated Chinese substrings and non-contiguous bigram pairs agree with brute force", async () => {
  const sections = sectionsByEdition.zh;
  const rnd = random(42);
  const pick = (n) => Math.floor(rnd.next().value * n);
  const runs = sections.flatMap((s) => S.queryTerms(s.text).filter((t) => t.kind === "cjk" && t.text.length >= 2));
  const bigrams = [
    ...new Set(sections.flatMap((s) => S.tokenize(s.text).filter((t) => t.kind === "bigram").map((t) => t.text))),
  ];
  let falseCandidates = 0;
  for (let k = 0; k < 300; ++k) {
    let q;
    if (k % 2 === 0) {
      const run = Array.from(runs[pick(runs.length)].text);
      const len = 1 + pick(Math.min(6, run.length));
      const at = pick(run.length - len + 1);
      q = run.slice(at, at + len).join("");
    } else {
      // Bigrams chained through a shared character, "ab" + "bc" from anywhere: both occur, "abc"
      // often does not.
      const [a, b] = Array.from(bigrams[pick(bigrams.length)]);
      const next = bigrams.filter((x) => x.startsWith(b));
      q = a + next[pick(next.length)];
    }
    const { index } = openIndex("zh");
    const session = await index.search(q);
    const got = [];
    for (let page; (page = await session.next(10)).length; ) got.push(...page.map(anchorOf));
    const want = bruteForce(sections, q);
    assert.deepEqual(got.sort(), want.sort(), "query " + q);
    falseCandidates += session.candidates - got.length;
  }
  assert.ok(falseCandidates > 0, "some generated query had candidates that verification rejected");
});

await test("generated word prefixes agree with brute force", async () => {
  for (const edition of ["en", "ru"]) {
    const sections = sectionsByEdition[edition];
    const words = [...new Set(sections.flatMap((s) => S.tokenize(s.text).map((t) => t.text)))];
    for (const w of words) {
      for (const len of [1, 2, 3, w.length]) {
        const q = Array.from(w).slice(0, len).join("");
        const { index } = openIndex(edition);
        const got = (await all(index, q)).map(anchorOf);
        assert.deepEqual(got.sort(), bruteForce(sections, q).sort(), `${edition}: ${q}`);
      }
    }
  }
});

// --- Snippets, ranking, links, downloads ---
await test("a verified Chinese match is highlighted whole, the false candidate is not shown", async () => {
  const { index } = openIndex("zh");
  const session = await index.search("计算单元");
  assert.equal(session.candidates, 2, "sec-1-1 and the false candidate sec-1-2");
  const results = await session.next(10);
  assert.equal(results.length, 1);
  assert.equal(results[0].href, "ch01.html#sec-1-1");
  assert.equal(results[0].chapter, "第 1 章 测试用的加速器");
  assert.match(results[0].snippetHtml, /<mark>计算单元<\/mark>在等待数据/);
});

await test("words are highlighted whole from their prefix, titles too, HTML is escaped", async () => {
  const { index } = openIndex("en");
  let [r] = await (await index.search("mem band")).next(10);
  assert.match(r.snippetHtml, /<mark>Memory<\/mark> <mark>bandwidth<\/mark> limits/);
  assert.equal(r.titleHtml, "1.2 The <mark>memory</mark> hierarchy");
  [r] = await (await index.search("condition")).next(10);
  assert.match(r.snippetHtml, /i &lt; n &amp;&amp; j &gt; 0/);
  const ru = openIndex("ru").index;
  [r] = await (await ru.search("памят")).next(10);
  assert.match(r.snippetHtml, /<mark>памяти<\/mark>/);
  assert.match(r.snippetHtml, /<mark>памятью<\/mark>/);
});

await test("a long text is cut to a window around the matches", () => {
  const text = "Lorem ipsum dolor sit amet. ".repeat(30) + "The roofline model bounds throughput. " + "Filler words here. ".repeat(30);
  const html = S.highlight(text, S.queryTerms("roofline throughput"), 120);
  assert.ok(html.startsWith("…") && html.endsWith("…"), html);
  assert.match(html, /<mark>roofline<\/mark> model bounds <mark>throughput<\/mark>/);
  assert.ok(html.replace(/<\/?mark>/g, "").length <= 124, html);
  const zh = "无关的文字。".repeat(40) + "屋顶线模型限定吞吐量。" + "其他内容。".repeat(40);
  const zhHtml = S.highlight(zh, S.queryTerms("屋顶线"), 60);
  assert.match(zhHtml, /^…[^<]*<mark>屋顶线<\/mark>模型限定吞吐量/);
});

await test("results come a page at a time in rank order", async () => {
  const { index } = openIndex("zh");
  const session = await index.search("量");
  const first = await session.next(2);
  assert.equal(first.length, 2);
  assert.ok(!session.done);
  const rest = await session.next(2);
  assert.equal(rest.length, 1);
  assert.ok(session.done);
  assert.ok(first[0].score >= first[1].score && first[1].score >= rest[0].score);
});

await test("a query downloads docs.json, its shards and the chunks of its results only", async () => {
  for (const [edition, query] of [["zh", "计算单元"], ["en", "memory"], ["ru", "памят"]]) {
    const total = fs
      .readdirSync(path.join(indexDir, edition))
      .reduce((n, f) => n + fs.statSync(path.join(indexDir, edition, f)).size, 0);
    const { index, counter } = openIndex(edition);
    await (await index.search(query)).next(10);
    assert.ok(counter.files.includes(edition + "/docs.json"));
    assert.ok(counter.bytes < total * 0.75, `${edition}: ${counter.bytes} of ${total} bytes: ${counter.files}`);
    assert.equal(new Set(counter.files).size, counter.files.length, "no file fetched twice");
  }
});

await test("an empty or punctuation-only query finds nothing and fetches no shard", async () => {
  const { index, counter } = openIndex("en");
  for (const q of ["", "  ", "—!?"]) assert.deepEqual(await (await index.search(q)).next(10), []);
  assert.deepEqual(counter.files, ["en/docs.json"]);
});

console.log(`search_js: ${passed} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
