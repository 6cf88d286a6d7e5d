/* Only in `bookbuild site --serve`: when a rebuild changes the open page, replace just the blocks of
   the chapter that changed (each top-level block carries a hash of its HTML), keeping the scroll
   position and without reloading styles and scripts; when assets change, reload. Build errors are
   shown over the page until they are fixed. */
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

  // Replaces the blocks whose hash changed: keep the common prefix and suffix, swap the middle.
  function patch(html) {
    var main = document.getElementById("content");
    var pieces = html.split("<!--bb-->");
    var fresh = [];
    for (var i = 0; i < pieces.length; i++) {
      var at = pieces[i].indexOf('<div class="bb-block" data-h="');
      if (at >= 0) fresh.push({ hash: pieces[i].substr(at + 30, 16), html: pieces[i].slice(at) });
    }
    var old = Array.prototype.slice.call(main.querySelectorAll(":scope > .bb-block"));
    if (!fresh.length || !old.length) return false;
    var p = 0;
    while (p < old.length && p < fresh.length && old[p].getAttribute("data-h") === fresh[p].hash) p++;
    var q = 0;
    while (q < old.length - p && q < fresh.length - p &&
           old[old.length - 1 - q].getAttribute("data-h") === fresh[fresh.length - 1 - q].hash) q++;
    var before = old[old.length - q] || old[old.length - 1].nextSibling;
    if (q === 0) before = old[old.length - 1].nextSibling;
    for (var k = p; k < old.length - q; k++) old[k].remove();
    var html2 = "";
    for (var j = p; j < fresh.length - q; j++) html2 += fresh[j].html;
    main.insertBefore(fragment(html2), before);
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
  });
  source.addEventListener("reload", function (e) {
    overlay(null);
    var pages = (e.data || "").split("\n");
    if (pages.indexOf("*") >= 0) { location.reload(); return; }
    if (pages.indexOf(here()) < 0) return;
    fetch(location.pathname, { cache: "no-store" })
      .then(function (r) { return r.text(); })
      .then(update)
      .catch(function () { location.reload(); });
  });
  source.addEventListener("failed", function (e) { overlay(e.data); });
})();
