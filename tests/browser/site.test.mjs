// End-to-end tests of the website in a real browser (issue 5): search in Chinese and English and
// follow a result, dark mode kept across reloads without a flash, the language switcher landing on the
// same section, and a live reload after editing a manuscript while serving.
// Usage: node site.test.mjs <bookbuild> <book folder> [port]
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SKIP, assert, chromiumPath, failed, launch, serveBook, test } from "./harness.mjs";

const [bookbuild, book, portArg] = process.argv.slice(2);
if (!bookbuild || !book) {
  console.error("usage: node site.test.mjs <bookbuild> <book folder> [port]");
  process.exit(2);
}
if (!existsSync(chromiumPath())) {
  console.log(`skip: no chromium at ${chromiumPath()}`);
  process.exit(SKIP);
}

const server = await serveBook(bookbuild, book, Number(portArg || 18731), { BOOKBUILD_TIMINGS: "1" });
const browser = await launch();
try {
  await test("dark mode follows the system setting", async () => {
    const ctx = await browser.newContext({ colorScheme: "dark" });
    const page = await ctx.newPage();
    await page.goto(server.url + "ch01.html");
    assert(await page.getAttribute("html", "data-theme") === "dark", "system dark should give the dark theme");
    await ctx.close();
  });

  await test("pages satisfy the server's Content-Security-Policy", async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const violations = [];
    page.on("console", (m) => { if (/Content Security Policy/i.test(m.text())) violations.push(m.text()); });
    await ctx.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => console.error(`Content Security Policy: ${e.violatedDirective} ${e.blockedURI}`));
    });
    const res = await page.goto(server.url + "ch01.html");
    assert(/script-src 'self'/.test(res.headers()["content-security-policy"] || ""), "the page is served with a CSP");
    await page.click(".theme-toggle");
    await page.fill(".search-input", "the");
    await page.waitForTimeout(500);
    await page.goto(server.url + "en/ch01.html");
    await page.goto(server.url + "no-such-page.html");
    await page.waitForTimeout(300);
    assert(violations.length === 0, `CSP violations: ${violations.join(" | ")}`);
    await ctx.close();
  });

  await test("dark mode toggles, persists and never flashes on load", async () => {
    const ctx = await browser.newContext({ colorScheme: "light" });
    // Before any page script: remember the theme of the very first animation frame (before first paint).
    await ctx.addInitScript(() => {
      requestAnimationFrame(() => {
        window.__firstFrame = {
          theme: document.documentElement.getAttribute("data-theme"),
          background: getComputedStyle(document.body || document.documentElement).backgroundColor,
        };
      });
    });
    const page = await ctx.newPage();
    await page.goto(server.url + "ch01.html");
    assert(await page.getAttribute("html", "data-theme") === "light", "light by default on a light system");
    await page.click(".theme-toggle");
    assert(await page.getAttribute("html", "data-theme") === "dark", "the toggle switches to dark");
    await page.reload();
    await page.waitForFunction(() => window.__firstFrame);
    const first = await page.evaluate(() => window.__firstFrame);
    assert(first.theme === "dark", `first frame after reload was ${first.theme}`);
    assert(first.background === "rgb(22, 23, 26)", `first frame background was ${first.background}`);
    await page.goto(server.url + "en/ch01.html");
    assert(await page.getAttribute("html", "data-theme") === "dark", "the choice holds on other pages");
    await ctx.close();
  });

  await test("the language switcher lands on the same section", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 700 } });
    await page.goto(server.url + "ch01.html#sec-1-1");
    await page.click(".languages a[hreflang='en']");
    await page.waitForURL(/\/en\/ch01\.html#sec-1-1$/);
    const top = await page.evaluate(() => document.getElementById("sec-1-1").getBoundingClientRect().top);
    assert(top >= 0 && top < 200, `the section is in view (top ${top})`);
    assert((await page.textContent("#sec-1-1")).includes("Reading the weights"), "English heading shown");
    await page.close();
  });

  await test("search finds a Chinese substring and follows the result to its section", async () => {
    const page = await browser.newPage();
    await page.goto(server.url + "ch01.html");
    await page.fill("#search input", "计算单元");
    const result = page.locator("#search a", { hasText: "" }).first();
    await result.waitFor({ timeout: 5000 });
    const snippet = await page.locator("#search mark").first().textContent();
    assert(snippet && snippet.includes("计算单元"), `highlighted snippet, got ${snippet}`);
    await result.click();
    await page.waitForURL(/ch01\.html#/);
    assert((await page.textContent("main")).includes("计算单元"), "landed on the page with the text");
    await page.close();
  });

  await test("search finds an English word by prefix and follows it", async () => {
    const page = await browser.newPage();
    await page.goto(server.url + "en/ch01.html");
    await page.fill("#search input", "bandw");
    const result = page.locator("#search a").first();
    await result.waitFor({ timeout: 5000 });
    const href = await result.getAttribute("href");
    assert(/ch01\.html#sec-1-1|ch01\.html/.test(href), `result links to the section, got ${href}`);
    await result.click();
    await page.waitForURL(/en\/ch01\.html/);
    await page.close();
  });

  await test("editing a manuscript while serving reloads the page with the change", async () => {
    const page = await browser.newPage();
    await page.goto(server.url + "en/ch01.html");
    await page.waitForSelector("html[data-live-reload=connected]", { state: "attached" });
    await page.evaluate(() => {
      document.addEventListener("bookbuild:updated", () => { window.__updatedAt = Date.now(); });
      // The page's own requests: a text edit must arrive with the server's event, not by a fetch.
      const original = window.fetch;
      window.__fetches = [];
      window.fetch = (...args) => { window.__fetches.push(String(args[0])); return original(...args); };
    });
    const file = join(server.book, "book-en", "chapter01.md");
    const marker = `Freshly edited sentence ${Date.now()}.`;
    const t0 = Date.now();
    writeFileSync(file, readFileSync(file, "utf8") + `\n${marker}\n`);
    await page.waitForFunction((m) => document.body.textContent.includes(m), marker, { timeout: 10000 });
    const shown = await page.evaluate(() => window.__updatedAt);
    console.log(`     change in the page ${shown - t0} ms after the save`);
    const fetched = await page.evaluate(() => window.__fetches);
    assert(fetched.length === 0, `the edit came as a patch of blocks, yet the page fetched ${fetched.join(", ")}`);
    const marks = server.log().match(/(change seen|reload sent) at \d+/g);
    if (marks) console.log(`     server: ${marks.slice(-2).map((m) => m.replace(/\d+$/, (n) => `+${n - t0} ms`)).join(", ")}`);
  });

  await test("a build error shows over the page and the server keeps serving", async () => {
    const page = await browser.newPage();
    await page.goto(server.url + "en/ch01.html");
    await page.waitForSelector("html[data-live-reload=connected]", { state: "attached" });
    const file = join(server.book, "book-en", "chapter01.md");
    const good = readFileSync(file, "utf8");
    let t0 = Date.now();
    writeFileSync(file, good + "\nA note that does not exist[^nowhere].\n");
    await page.waitForSelector("#bb-error-overlay", { timeout: 10000 });
    console.log(`     error shown ${Date.now() - t0} ms after the save`);
    t0 = Date.now();
    const text = await page.textContent("#bb-error-overlay");
    assert(text.includes("chapter01.md") && text.includes("[^nowhere]"), `overlay names the place: ${text}`);
    writeFileSync(file, good);
    await page.waitForFunction(() => !document.getElementById("bb-error-overlay"), null, { timeout: 10000 });
    console.log(`     error cleared ${Date.now() - t0} ms after the fix`);
  });
} finally {
  // What the server said, for a failure that does not reproduce (the log goes with its temporary folder).
  if (failed()) console.log(`--- server log (end) ---\n${server.log().slice(-6000)}`);
  await browser.close();
  await server.stop();
}
process.exit(failed() ? 1 : 0);
