// How long after saving a chapter does the open page show the change? Serves a copy of a book with
// `bookbuild site --serve`, opens a chapter in Debian's chromium, appends a sentence to the chapter's
// manuscript N times and prints each latency and the median (save → new content in the page's DOM).
// Usage: node bench/site/reload-latency.mjs <bookbuild> <book> <page> <manuscript (relative to book)> [runs]
//   e.g. node bench/site/reload-latency.mjs build-release/builder/bookbuild ../shared/corpus/upstream \
//          en/ch04.html book-en/chapter04.md 10
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch, serveBook } from "../../tests/browser/harness.mjs";

const [bookbuild, book, pagePath, manuscript, runsArg] = process.argv.slice(2);
if (!manuscript) {
  console.error("usage: node reload-latency.mjs <bookbuild> <book> <page> <manuscript> [runs]");
  process.exit(2);
}
const runs = Number(runsArg || 10);
const server = await serveBook(bookbuild, book, 18741);
const browser = await launch();
const page = await browser.newPage();
await page.goto(server.url + pagePath);
await page.waitForSelector("html[data-live-reload=connected]", { state: "attached" });
// The time is taken when live-reload.js has patched the page (its `bookbuild:updated` event) and the
// page holds the edit. Polling the page's whole text every frame instead, as a first version did, kept
// the page's main thread busy and delayed the very update it measured.
// Times are in milliseconds since the epoch with a fraction (timeOrigin + now(), in Node and in the
// page alike): whole milliseconds were too coarse to compare 5 ms latencies within 20%.
await page.evaluate(() => document.addEventListener("bookbuild:updated", () => {
  const at = performance.timeOrigin + performance.now();
  if (window.__marker && document.getElementById("content").textContent.includes(window.__marker)) window.__seenAt = at;
}));
const file = join(server.book, manuscript);
const times = [];
for (let i = 0; i < runs; i++) {
  const marker = `Latency probe ${i} ${Date.now()}.`;
  await page.evaluate((m) => { window.__marker = m; window.__seenAt = 0; }, marker);
  const text = readFileSync(file, "utf8") + `\n${marker}\n`;
  const t0 = performance.timeOrigin + performance.now();
  writeFileSync(file, text);
  await page.waitForFunction(() => window.__seenAt > 0, null, { timeout: 20000, polling: 50 });
  times.push((await page.evaluate(() => window.__seenAt)) - t0);
  const marks = server.log().match(/(change seen|patch sent|reload sent) at \d+/g);
  if (process.env.BOOKBUILD_TIMINGS && marks)
    console.log(`  edit ${i}: page ${times[i].toFixed(1)} ms; server ${marks.slice(-3).map((m) => m.replace(/\d+$/, (n) => `+${(n - t0).toFixed(0)} ms`)).join(", ")}`);
  await new Promise((r) => setTimeout(r, 300));
}
await browser.close();
await server.stop();
times.sort((a, b) => a - b);
console.log(`save → change in page over ${runs} edits of ${manuscript}: ` +
            `median ${times[Math.floor(runs / 2)].toFixed(1)} ms, min ${times[0].toFixed(1)} ms, ` +
            `max ${times[runs - 1].toFixed(1)} ms`);
