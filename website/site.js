/* Page behaviour: theme toggle, sidebar on small screens, the in-page table of contents that follows
   the reader, and the language switcher that keeps the section the reader is looking at. */
(function () {
  "use strict";
  var root = document.documentElement;

  var toggle = document.querySelector(".theme-toggle");
  if (toggle) {
    toggle.addEventListener("click", function () {
      var next = root.getAttribute("data-theme") === "dark" ? "light" : "dark";
      root.setAttribute("data-theme", next);
      try { localStorage.setItem("bb-theme", next); } catch (e) { /* private mode: not persisted */ }
    });
  }

  var menu = document.querySelector(".menu-toggle");
  if (menu) {
    menu.addEventListener("click", function () {
      var open = document.body.classList.toggle("sidebar-open");
      menu.setAttribute("aria-expanded", open ? "true" : "false");
    });
  }

  // The section currently at the top of the viewport: the last heading above it.
  var headings = Array.prototype.slice.call(document.querySelectorAll("main h2[id], main h3[id]"));
  function currentSection() {
    var current = null;
    for (var i = 0; i < headings.length; i++) {
      if (headings[i].getBoundingClientRect().top <= 80) current = headings[i];
      else break;
    }
    return current;
  }

  var tocLinks = Array.prototype.slice.call(document.querySelectorAll(".page-toc a[href^='#']"));
  function highlight() {
    var s = currentSection();
    tocLinks.forEach(function (a) {
      a.classList.toggle("active", !!s && a.getAttribute("href") === "#" + s.id);
    });
  }
  window.addEventListener("scroll", highlight, { passive: true });
  highlight();

  // Every edition uses the same ids for the same places, so the switcher carries the section over.
  document.querySelectorAll(".languages a[data-page]").forEach(function (a) {
    a.addEventListener("click", function () {
      var s = currentSection();
      var hash = s ? "#" + s.id : location.hash;
      a.setAttribute("href", a.getAttribute("data-page") + (hash || ""));
    });
  });
})();
