/* Only in `bookbuild site --serve`: when a rebuild changes the open page, swap in its new content
   (keeping the scroll position, without reloading styles and scripts); when assets change, reload.
   Build errors are shown over the page until they are fixed. */
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

  // Replaces the parts of the page a manuscript change can affect.
  function swap(html) {
    var next = new DOMParser().parseFromString(html, "text/html");
    ["#content", "#sidebar", ".page-toc"].forEach(function (sel) {
      var a = document.querySelector(sel), b = next.querySelector(sel);
      if (a && b) a.innerHTML = b.innerHTML;
    });
    document.title = next.title;
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
      .then(swap)
      .catch(function () { location.reload(); });
  });
  source.addEventListener("failed", function (e) { overlay(e.data); });
})();
