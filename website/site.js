/* Page behaviour: theme toggle, sidebar on small screens, the in-page table of contents that follows
   the reader, the language switcher that keeps the section the reader is looking at, a copy button on
   code blocks, and keyboard access to blocks that scroll sideways. */
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
  // Work that measures the page or adds to it waits until the browser is idle after the first paint,
  // so that it does not lengthen the load's main-thread tasks (Lighthouse: total blocking time).
  var later = window.requestIdleCallback || function (f) { setTimeout(f, 1); };

  window.addEventListener("scroll", highlight, { passive: true });
  later(highlight);

  // Every edition uses the same ids for the same places, so the switcher carries the section over.
  document.querySelectorAll(".languages a[data-page]").forEach(function (a) {
    a.addEventListener("click", function () {
      var s = currentSection();
      var hash = s ? "#" + s.id : location.hash;
      a.setAttribute("href", a.getAttribute("data-page") + (hash || ""));
    });
  });

  // A copy button on every code block; again after the dev server replaces blocks of the page.
  // The words come from the edition's language file (languages/*.toml), through the page template.
  var words = [document.body.getAttribute("data-copy") || "Copy", document.body.getAttribute("data-copied") || "Copied"];
  function addCopyButtons() {
    document.querySelectorAll("main pre > code").forEach(function (code) {
      var pre = code.parentNode;
      if (pre.querySelector(".copy-code") || !navigator.clipboard) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "copy-code";
      button.textContent = words[0];
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(code.textContent).then(function () {
          button.textContent = words[1];
          setTimeout(function () { button.textContent = words[0]; }, 1500);
        });
      });
      pre.appendChild(button);
    });
  }
  later(addCopyButtons);
  document.addEventListener("bookbuild:updated", addCopyButtons);

  // A table, formula or code block wider than the screen scrolls sideways; keyboard users reach it
  // with Tab (WCAG 2.1.1). Only those that overflow become tab stops, measured once the page is laid
  // out (all sizes read first, then the attributes set: one layout).
  var SCROLLERS = ".table-wrap, .math.display, pre";
  function focusableScrollers(within) {
    var els = Array.prototype.slice.call(within.querySelectorAll(SCROLLERS));
    if (within.matches && within.matches(SCROLLERS)) els.push(within);
    var wide = els.map(function (el) { return el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight; });
    els.forEach(function (el, i) {
      if (wide[i]) el.setAttribute("tabindex", "0");
      else el.removeAttribute("tabindex");
    });
  }
  var main = document.querySelector("main");
  if (main) {
    var measure = function () { later(function () { focusableScrollers(main); }); };
    if (document.readyState === "complete") measure();
    else window.addEventListener("load", measure);
    window.addEventListener("resize", measure, { passive: true });
  }
})();
