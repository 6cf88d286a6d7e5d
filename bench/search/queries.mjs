// What a reader downloads for typical queries: each query on a cold index (nothing cached), its first
// page of results (10). Prints one line per query and the largest.
//
//   node queries.mjs <website/search.js> <index dir of one edition> <query>...
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const [searchJs, dir, ...queries] = process.argv.slice(2);
const S = createRequire(import.meta.url)(path.resolve(searchJs));
let largest = 0;
for (const q of queries) {
  let bytes = 0;
  let files = 0;
  const index = new S.SearchIndex("", async (name) => {
    const data = fs.readFileSync(path.join(dir, name));
    bytes += data.length;
    ++files;
    return data;
  });
  const session = await index.search(q);
  const results = await session.next(10);
  largest = Math.max(largest, bytes);
  console.log(`  ${q.padEnd(20)} ${String(results.length).padStart(2)} results  ${files} files  ${bytes} bytes`);
}
console.log(`  largest: ${largest} bytes`);
