/* Only in `bookbuild site --serve`: reload when a rebuild finishes, keeping the scroll position;
   show build errors over the page until they are fixed. */
(function () {
  "use strict";
  var key = "bb-scroll:" + location.pathname;
  try {
    var saved = sessionStorage.getItem(key);
    if (saved !== null) {
      sessionStorage.removeItem(key);
      window.addEventListener("load", function () { window.scrollTo(0, parseInt(saved, 10) || 0); });
    }
  } catch (e) {}

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

  var version = null;
  var source = new EventSource("/__bookbuild/events");
  source.addEventListener("hello", function (e) {
    if (version !== null && e.data !== version) location.reload();
    version = e.data;
  });
  source.addEventListener("reload", function (e) {
    var pages = (e.data || "").split("\n");
    var here = location.pathname.replace(/^\//, "") || "index.html";
    if (here.endsWith("/")) here += "index.html";
    if (e.data === "*" || pages.indexOf(here) >= 0) {
      try { sessionStorage.setItem(key, String(window.scrollY)); } catch (err) {}
      location.reload();
    } else {
      overlay(null);
    }
  });
  source.addEventListener("failed", function (e) { overlay(e.data); });
})();
