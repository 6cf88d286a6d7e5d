// The search client (website/search.js) in Node against indexes the C++ side wrote from the fixture
// chapters: tokens agree with C++ on every section, the queries in fixtures/queries.txt find what they
// should, every query agrees with a brute-force scan of the texts, snippets are highlighted and
// escaped, and a query downloads only part of the index.
//
//   node query_test.mjs <website/search.js> <tests/search/fixtures> <index dir from search_index_tool>
import assert from "node:assert/strict";
import fs from "node:fs";
import zlib from "node:zlib";
import path from "node:path";
import * as T from "./support.mjs";

const [searchJs, fixtures, indexDir] = process.argv.slice(2);
const S = T.loadSearch(searchJs);
const EDITIONS = ["zh", "en", "ru"];
const { test, finish } = T.runner();
const openIndex = (edition) => T.openIndex(S, indexDir, edition);
const all = T.allResults;
const anchorOf = T.anchorOf;
const sectionsOf = (edition) => T.sectionsOf(S, indexDir, edition);
const bruteForce = (sections, query) => T.bruteForce(S, sections, query);

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
    const diff = await T.tokenDifference(S, indexDir, edition);
    assert.equal(diff, null);
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
await test("generated Chinese substrings and chained bigrams agree with brute force", async () => {
  const sections = sectionsByEdition.zh;
  let falseCandidates = 0;
  for (const q of T.generatedQueries(S, sections, 450).filter((q) => S.isCjk(q.codePointAt(0)))) {
    const { index } = openIndex("zh");
    const session = await index.search(q);
    const got = [];
    for (let page; (page = await session.next(10)).length; ) got.push(...page.map(anchorOf));
    assert.deepEqual(got.sort(), bruteForce(sections, q).sort(), "query " + q);
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
  assert.match(html, /^…[^<]{20,}<mark>roofline/, "context before the first match");
  const atEnd = S.highlight("Filler words here. ".repeat(30) + "ends with roofline.", S.queryTerms("roofline"), 120);
  assert.ok(atEnd.replace(/<\/?mark>/g, "").length >= 110, "a match at the end still gets a full window: " + atEnd);
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

await test("files a server has already inflated (Content-Encoding: gzip) are read as they are", async () => {
  const index = new S.SearchIndex("en/", async (url) => {
    const data = fs.readFileSync(path.join(indexDir, url));
    return url.endsWith(".gz") ? zlib.gunzipSync(data) : data;
  });
  const [r] = await (await index.search("systolic")).next(10);
  assert.equal(r.href, "ch01.html#sec-1-4");
});

await test("an empty or punctuation-only query finds nothing and fetches no shard", async () => {
  const { index, counter } = openIndex("en");
  for (const q of ["", "  ", "—!?"]) assert.deepEqual(await (await index.search(q)).next(10), []);
  assert.deepEqual(counter.files, ["en/docs.json"]);
});

finish("search_js");
