// What a new user does first (issue 16): `bookbuild init mybook`, `bookbuild check`, then
// `bookbuild site --serve`, and reads a page with highlighted code, a computed number and working search.
// Every scaffold language must pass `check`; the English one is also read in the browser.
// Usage: node init.test.mjs <bookbuild> [port]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SKIP, assert, chromiumPath, failed, launch, serveBook, test } from "./harness.mjs";
import { serveStatic } from "./static-server.mjs";

const [bookbuild, portArg] = process.argv.slice(2);
if (!bookbuild) {
  console.error("usage: node init.test.mjs <bookbuild> [port]");
  process.exit(2);
}
if (!existsSync(chromiumPath())) {
  console.log(`skip: no chromium at ${chromiumPath()}`);
  process.exit(SKIP);
}

const work = mkdtempSync(join(tmpdir(), "bb-init-"));
function run(args, cwd) {
  const r = spawnSync(bookbuild, args, { cwd, encoding: "utf8" });
  return { code: r.status, out: r.stdout + r.stderr };
}

try {
  for (const language of ["en", "zh"]) {
    await test(`init --language ${language} makes a book that passes check`, async () => {
      const dir = join(work, language);
      mkdirSync(dir);
      const made = run(["init", "mybook", "--language", language], dir);
      assert(made.code === 0, `init exited ${made.code}: ${made.out}`);
      assert(existsSync(join(dir, "mybook", "book.toml")), "book.toml written");
      const check = run(["check"], join(dir, "mybook"));
      assert(check.code === 0, `check exited ${check.code}:\n${check.out}`);
      assert(!/: (warning|error): /.test(check.out), `check reports no problem:\n${check.out}`);
      const again = run(["init", "mybook", "--language", language], dir);
      assert(again.code === 2 && again.out.includes("already exists"), `a second init refuses: ${again.out}`);
    });
  }

  const server = await serveBook(bookbuild, join(work, "en", "mybook"), Number(portArg || 18751));
  const browser = await launch();
  try {
    await test("the new book's chapter has highlighted code, a computed number and search", async () => {
      const page = await browser.newPage();
      await page.goto(server.url + "ch01.html");
      const keywords = await page.locator("pre code .hl-keyword, pre code .hl-function").count();
      assert(keywords > 0, "the Python block has highlighted tokens");
      const comment = page.locator("pre code .hl-comment").first();
      assert((await comment.textContent()).startsWith("#"), "a comment token");
      const text = await page.textContent("main");
      assert(text.includes("16 GB of memory"), "the computed number (8e9 parameters × 2 bytes) is in the text");
      assert(!text.includes("{{"), "no placeholder left");
      assert(await page.locator("figure img[src='img/outputs.svg']").count() === 1, "the figure");
      await page.fill("#search input", "bandwidth");
      const result = page.locator("#search a").first();
      await result.waitFor({ timeout: 5000 });
      await result.click();
      await page.waitForURL(/ch01\.html#/);
      await page.close();
    });
  } finally {
    await browser.close();
    await server.stop();
  }

  await test("site --with-downloads links the EPUB and the PDF from every page, and they open", async () => {
    const book = join(work, "en", "mybook");
    const built = run(["-q", "site", "--with-downloads"], book);
    assert(built.code === 0, `site --with-downloads exited ${built.code}:\n${built.out}`);
    const site = join(book, "build", "site");
    const server = await serveStatic(site, Number(portArg || 18751) + 1);
    const browser = await launch();
    try {
      const page = await browser.newPage();
      for (const path of ["index.html", "ch01.html"]) {
        await page.goto(`http://127.0.0.1:${Number(portArg || 18751) + 1}/${path}`);
        const links = await page.$$eval(".downloads a", (as) => as.map((a) => [a.textContent, a.href]));
        assert(links.length === 2, `${path}: two download links, got ${JSON.stringify(links)}`);
        for (const [format, href] of links) {
          const body = await (await page.request.get(href)).body();
          const magic = format === "PDF" ? "%PDF" : "PK";
          assert(body.subarray(0, magic.length).toString() === magic, `${path}: ${href} is a ${format}`);
        }
      }
    } finally {
      await browser.close();
      await server.close();
    }
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed() ? 1 : 0);
