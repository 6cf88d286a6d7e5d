// A static file server like the hosts a built site is published on: gzip for text, 404.html (status
// 404) for a missing file, index.html for a folder. Used by the browser tests that measure the site
// as readers get it, not as the dev server (live reload, no compression) serves it.
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { gzipSync } from "node:zlib";

const TYPES = {
  ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8",
  ".json": "application/json", ".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg",
  ".ico": "image/x-icon", ".xml": "application/xml", ".epub": "application/epub+zip", ".pdf": "application/pdf",
};
const COMPRESS = new Set([".html", ".css", ".js", ".json", ".svg", ".xml"]);

export function serveStatic(root, port) {
  const server = createServer((req, res) => {
    let path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root)) file = "";
    if (file && existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    let status = 200;
    if (!file || !existsSync(file)) {
      status = 404;
      file = join(root, "404.html");
    }
    const ext = extname(file);
    const headers = { "Content-Type": TYPES[ext] || "application/octet-stream", "Cache-Control": "max-age=600" };
    if (COMPRESS.has(ext) && /\bgzip\b/.test(req.headers["accept-encoding"] || "")) {
      const body = gzipSync(readFileSync(file));
      res.writeHead(status, { ...headers, "Content-Encoding": "gzip", "Content-Length": body.length });
      res.end(body);
      return;
    }
    res.writeHead(status, headers);
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve({
    close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(r); }),
  })));
}
