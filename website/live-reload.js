/* Only in `bookbuild site --serve`: when a rebuild changes the open page, replace just the blocks of
   the chapter that changed (each top-level block carries a hash of its HTML), keeping the scroll
   position and without reloading styles and scripts. When only blocks changed, the server sends them
   with the event ("patch"); otherwise ("reload") the page fetches itself and compares; when assets
   change, it reloads. Build errors are shown over the page until they are fixed. */
(function () {
  "use strict";

  function overlay(text) {
    var box = document.getElementById("bb-error-overlay");
    if (!text) { if (box) box.remove(); return; }
    if (!box) {
      box = document.createElement("div");
      box.id = "bb-error-overlay";
      box.setAttribute("role", "alert");
      document.body.appendChild(box);
    }
    box.textContent = text;
  }

  function here() {
    var path = decodeURIComponent(location.pathname).replace(/^\//, "");
    if (path === "" || path.endsWith("/")) path += "index.html";
    return path;
  }

  // The text between two markers of the fetched page ("" when absent).
  function between(html, open, close) {
    var a = html.indexOf(open);
    if (a < 0) return null;
    a = html.indexOf(">", a) + 1;
    var b = html.indexOf(close, a);
    return b < 0 ? null : html.slice(a, b);
  }

  function fragment(html) {
    var t = document.createElement("template");
    t.innerHTML = html;
    return t.content;
  }

  function blocks() {
    return Array.prototype.slice.call(document.querySelectorAll("#content > .bb-block"));
  }

  // Replaces old[p .. old.length - q) by the blocks in `html`.
  function splice(old, p, q, html) {
    var main = document.getElementById("content");
    var before = q > 0 ? old[old.length - q] : old[old.length - 1].nextSibling;
    for (var k = p; k < old.length - q; k++) old[k].remove();
    main.insertBefore(fragment(html), before);
  }

  // A fetched page: the blocks whose hash changed are replaced (common prefix and suffix kept).
  function patch(html) {
    var pieces = html.split("<!--bb-->");
    var fresh = [];
    for (var i = 0; i < pieces.length; i++) {
      var at = pieces[i].indexOf('<div class="bb-block" data-h="');
      if (at >= 0) fresh.push({ hash: pieces[i].substr(at + 30, 16), html: pieces[i].slice(at) });
    }
    var old = blocks();
    if (!fresh.length || !old.length) return false;
    var p = 0;
    while (p < old.length && p < fresh.length && old[p].getAttribute("data-h") === fresh[p].hash) p++;
    var q = 0;
    while (q < old.length - p && q < fresh.length - p &&
           old[old.length - 1 - q].getAttribute("data-h") === fresh[fresh.length - 1 - q].hash) q++;
    var html2 = "";
    for (var j = p; j < fresh.length - q; j++) html2 += fresh[j].html;
    splice(old, p, q, html2);
    return true;
  }

  // A patch sent by the server ("N P Q", the hashes of the blocks that go, the new blocks' HTML): it
  // applies only to the page as the server last built it; any other copy fetches itself again.
  function applyPatch(data) {
    var nl1 = data.indexOf("\n"), nl2 = data.indexOf("\n", nl1 + 1);
    if (nl1 < 0 || nl2 < 0) return false;
    var n = data.slice(0, nl1).split(" ").map(Number);
    var gone = nl2 > nl1 + 1 ? data.slice(nl1 + 1, nl2).split(" ") : [];
    var old = blocks();
    if (old.length !== n[0] || gone.length !== n[0] - n[1] - n[2]) return false;
    for (var k = 0; k < gone.length; k++)
      if (old[n[1] + k].getAttribute("data-h") !== gone[k]) return false;
    splice(old, n[1], n[2], data.slice(nl2 + 1));
    return true;
  }

  var applied = {};
  function swapChrome(html) {
    [["#sidebar", '<nav id="sidebar"', "</nav>"], [".page-toc", '<aside class="page-toc"', "</aside>"]].forEach(function (s) {
      var inner = between(html, s[1], s[2]);
      var el = document.querySelector(s[0]);
      if (inner !== null && el && applied[s[0]] !== inner) { el.innerHTML = inner; applied[s[0]] = inner; }
    });
    var title = between(html, "<title", "</title>");
    if (title !== null) document.title = fragment(title).textContent;
  }

  function update(html) {
    if (!patch(html)) { location.reload(); return; }
    swapChrome(html);
    document.dispatchEvent(new CustomEvent("bookbuild:updated"));
  }

  var version = null;
  var source = new EventSource("/__bookbuild/events");
  source.addEventListener("hello", function (e) {
    if (version !== null && e.data !== version) location.reload();  // the server restarted
    version = e.data;
    // From here on the page hears every change (tests and benchmarks wait for this before editing).
    document.documentElement.setAttribute("data-live-reload", "connected");
  });
  function refetch() {
    fetch(location.pathname, { cache: "no-store" })
      .then(function (r) { return r.text(); })
      .then(update)
      .catch(function () { location.reload(); });
  }
  source.addEventListener("patch", function (e) {
    overlay(null);
    var nl = e.data.indexOf("\n");
    if (e.data.slice(0, nl) !== here()) return;
    if (applyPatch(e.data.slice(nl + 1))) document.dispatchEvent(new CustomEvent("bookbuild:updated"));
    else refetch();
  });
  source.addEventListener("reload", function (e) {
    overlay(null);
    var pages = (e.data || "").split("\n");
    if (pages.indexOf("*") >= 0) { location.reload(); return; }
    if (pages.indexOf(here()) >= 0) refetch();
  });
  source.addEventListener("failed", function (e) { overlay(e.data); });
})();
