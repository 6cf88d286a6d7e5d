// Shared by the browser tests: a bookbuild dev server on a copy of a book, and Debian's chromium.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

// playwright-core comes from npm (`npm ci` in tests/browser); without it the tests skip.
let chromium;
try {
  ({ chromium } = await import("playwright-core"));
} catch {
  console.log("skip: playwright-core is not installed (run `npm ci` in tests/browser)");
  process.exit(77);
}

export const SKIP = 77;  // CTest's SKIP_RETURN_CODE

export function chromiumPath() {
  return process.env.CHROMIUM || "/usr/bin/chromium";
}

// Copies the book to a temporary folder (the tests edit manuscripts) and serves it; `env` is added to
// the server's environment (BOOKBUILD_TIMINGS=1 puts each rebuild's steps in its log). The book's own
// `build` and `.git` folders are not copied: in this repository they hold gigabytes, whose copy (and
// its write-back to disk) took minutes and stalled the measurements of bench/site.
export async function serveBook(bookbuild, book, port, env = {}) {
  const work = mkdtempSync(join(tmpdir(), "bb-browser-"));
  const copy = join(work, "book");
  const skip = [join(resolve(book), "build"), join(resolve(book), ".git")];
  cpSync(book, copy, { recursive: true, filter: (from) => !skip.includes(resolve(from)) });
  const child = spawn(bookbuild, ["--book", copy, "--out", join(work, "out"), "site", "--serve", "--port", String(port)],
                      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  let log = "";
  child.stdout.on("data", (d) => { log += d; });
  const ready = new Promise((resolve, reject) => {
    child.stderr.on("data", (d) => {
      log += d;
      if (log.includes("site: serving")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`bookbuild exited with ${code}:\n${log}`)));
    setTimeout(() => reject(new Error(`bookbuild did not start serving in 60 s:\n${log}`)), 60000);
  });
  await ready;
  return {
    url: `http://127.0.0.1:${port}/`,
    book: copy,
    log: () => log,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      rmSync(work, { recursive: true, force: true });
    },
  };
}

// Flags from this machine's notes: no sandbox as root, and no background networking (the network is
// closed; chromium would otherwise keep trying to reach Google's hosts).
export async function launch() {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync"],
  });
}

let failures = 0;
export async function test(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    console.log(`ok   ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    failures++;
    console.log(`FAIL ${name}\n     ${e.stack || e}`);
  }
}
export function failed() { return failures; }

export function assert(cond, message) {
  if (!cond) throw new Error(message);
}
