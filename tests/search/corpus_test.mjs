// The search client against the real book's index (written by `search_index_tool corpus`): C++ and
// JavaScript tokenise every section of every edition identically, and generated queries find exactly
// what a brute-force scan of the texts finds.
//
//   node corpus_test.mjs <website/search.js> <index dir>
import assert from "node:assert/strict";
import fs from "node:fs";
import * as T from "./support.mjs";

const [searchJs, indexDir] = process.argv.slice(2);
const S = T.loadSearch(searchJs);
const { test, finish } = T.runner();
const editions = fs.readdirSync(indexDir).filter((f) => f.endsWith(".tokens")).map((f) => f.slice(0, -7));

await test("the index has editions", () => assert.ok(editions.length > 0));
for (const edition of editions) {
  await test("tokens agree with C++: " + edition, async () => {
    assert.equal(await T.tokenDifference(S, indexDir, edition), null);
  });
  await test("generated queries agree with brute force: " + edition, async () => {
    const sections = await T.sectionsOf(S, indexDir, edition);
    const { index } = T.openIndex(S, indexDir, edition);  // one index, cached files, as in a browser
    for (const q of T.generatedQueries(S, sections, 150)) {
      const got = (await T.allResults(index, q)).map(T.anchorOf);
      assert.deepEqual(got.sort(), T.bruteForce(S, sections, q).sort(), "query " + q);
    }
  });
}
finish("search_js_corpus");
