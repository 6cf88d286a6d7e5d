// The site's search: queries the index that bookbuild writes per edition (builder/site/search_index.cpp,
// format in docs/search.md). The core (folding, tokens, shards, ranking, snippets) needs no DOM and
// runs in Node for the tests; the page glue at the end runs only in a browser.
(function () {
  "use strict";

  // ---- Folding and tokens: the same rule as the C++ tokeniser. ----

  // Han, Kana, Hangul and Bopomofo: indexed by bigrams (same table as is_cjk in search_index.cpp).
  const CJK_RANGES = [
    [0x1100, 0x11ff], [0x2e80, 0x2fdf], [0x3005, 0x3007], [0x3021, 0x3029], [0x3038, 0x303b],
    [0x3041, 0x3096], [0x309d, 0x309f], [0x30a1, 0x30fa], [0x30fc, 0x30ff], [0x3105, 0x312f],
    [0x3131, 0x318e], [0x31a0, 0x31bf], [0x31f0, 0x31ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff],
    [0xa960, 0xa97f], [0xac00, 0xd7af], [0xd7b0, 0xd7ff], [0xf900, 0xfaff], [0x20000, 0x3ffff],
  ];
  function isCjk(c) {
    for (const [lo, hi] of CJK_RANGES) {
      if (c < lo) return false;
      if (c <= hi) return true;
    }
    return false;
  }
  const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
  const wordCache = new Map();
  function isWordChar(c) {
    if (isCjk(c)) return false;
    let w = wordCache.get(c);
    if (w === undefined) wordCache.set(c, (w = WORD_CHAR.test(String.fromCodePoint(c))));
    return w;
  }

  // lowercase(NFKC(c)) for one code point; the text is NFC already (stored texts are, queries are
  // normalised first).
  const foldCache = new Map();
  function foldChar(ch) {
    let f = foldCache.get(ch);
    if (f === undefined) foldCache.set(ch, (f = ch.normalize("NFKC").toLowerCase()));
    return f;
  }

  // The folded text with, for each UTF-16 unit of it, the range of the original it came from.
  function foldMapped(text) {
    let s = "";
    const from = [];
    const to = [];
    for (let i = 0; i < text.length; ) {
      const cp = text.codePointAt(i);
      const n = cp > 0xffff ? 2 : 1;
      const f = foldChar(text.slice(i, i + n));
      for (let k = 0; k < f.length; ++k) {
        from.push(i);
        to.push(i + n);
      }
      s += f;
      i += n;
    }
    return { s, from, to };
  }

  function fold(text) {
    let s = "";
    for (const ch of text.normalize("NFC")) s += foldChar(ch);
    return s;
  }

  // Words and CJK runs of a folded string, as { kind: "word" | "cjk", text }.
  function scan(folded) {
    const cps = Array.from(folded, (ch) => ch.codePointAt(0));
    const out = [];
    for (let i = 0; i < cps.length; ) {
      let j = i;
      if (isCjk(cps[i])) {
        while (j < cps.length && isCjk(cps[j])) ++j;
        out.push({ kind: "cjk", text: String.fromCodePoint(...cps.slice(i, j)) });
      } else if (isWordChar(cps[i])) {
        while (j < cps.length && isWordChar(cps[j])) ++j;
        out.push({ kind: "word", text: String.fromCodePoint(...cps.slice(i, j)) });
      } else {
        ++j;
      }
      i = j;
    }
    return out;
  }

  // Index terms, as the C++ tokenize() returns them: words, CJK bigrams, the last char of each run.
  function tokenize(text) {
    const out = [];
    for (const t of scan(fold(text))) {
      if (t.kind === "word") {
        out.push({ kind: "word", text: t.text });
        continue;
      }
      const chars = Array.from(t.text);
      for (let k = 0; k + 1 < chars.length; ++k) out.push({ kind: "bigram", text: chars[k] + chars[k + 1] });
      out.push({ kind: "unigram", text: chars[chars.length - 1] });
    }
    return out;
  }

  // Query terms: distinct words (matched as word prefixes) and CJK runs (matched as substrings).
  function queryTerms(query) {
    const seen = new Set();
    return scan(fold(query)).filter((t) => !seen.has(t.kind + t.text) && seen.add(t.kind + t.text));
  }

  // ---- Postings ----

  const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const DIGIT = new Map(Array.from(DIGITS, (ch, i) => [ch, i]));

  // "…" → [[section, weight], …]; weight 3 = in the title, else 0/1/2 by frequency in the text.
  function decodePostings(str) {
    const out = [];
    let section = 0;
    let value = 0;
    let shift = 0;
    for (const ch of str) {
      const d = DIGIT.get(ch);
      value += (d & 31) * 2 ** shift;
      shift += 5;
      if (d & 32) continue;
      section += Math.floor(value / 4);
      out.push([section, value % 4]);
      value = 0;
      shift = 0;
    }
    return out;
  }

  function termScore(weight, exact) {
    return (weight === 3 ? 8 : 1 + weight) + (exact ? 1 : 0);
  }

  // ---- The index of one edition ----

  // The files ending in .gz are gzipped by the builder. A server that sends them with
  // Content-Encoding: gzip has already inflated them, so look at the bytes, not the name.
  async function inflate(bytes) {
    if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  class SearchIndex {
    // `base`: URL of the index folder, ending in "/"; `fetchBytes(url)`: a promise of the file's
    // bytes (Uint8Array or ArrayBuffer).
    constructor(base, fetchBytes) {
      this.base = base;
      this.fetchBytes = fetchBytes;
      this.files = new Map();
    }

    file(name) {
      if (!this.files.has(name)) {
        const text = Promise.resolve(this.fetchBytes(this.base + name))
          .then((b) => inflate(new Uint8Array(b)))
          .then((b) => new TextDecoder().decode(b));
        this.files.set(name, text);
      }
      return this.files.get(name);
    }

    async docs() {
      if (!this.docsPromise) {
        this.docsPromise = this.file("docs.json").then((t) => {
          const d = JSON.parse(t);
          d.split = new Set();
          for (const key of Object.keys(d.words)) {
            const chars = Array.from(key);
            if (chars.length === 2) d.split.add(chars[0]);
          }
          return d;
        });
      }
      return this.docsPromise;
    }

    // Front-coded lines "<shared><rest>\t<postings>" → [[word, postings], …].
    async wordShard(k) {
      const name = "w" + k + ".txt.gz";
      const key = "parsed:" + name;
      if (!this.files.has(key)) {
        this.files.set(
          key,
          this.file(name).then((text) => {
            const out = [];
            let prev = [];
            for (const line of text.split("\n")) {
              if (!line) continue;
              const tab = line.indexOf("\t");
              const rest = Array.from(line.slice(1, tab));
              const chars = prev.slice(0, DIGIT.get(line[0])).concat(rest);
              out.push([chars.join(""), line.slice(tab + 1)]);
              prev = chars;
            }
            return out;
          })
        );
      }
      return this.files.get(key);
    }

    // Lines "<first char><unigram postings>(<second char><postings>)*" → Map first → Map second → postings
    // (second "" for the unigram).
    async cjkShard(k) {
      const name = "c" + k + ".txt.gz";
      const key = "parsed:" + name;
      if (!this.files.has(key)) {
        this.files.set(
          key,
          this.file(name).then((text) => {
            const out = new Map();
            for (const line of text.split("\n")) {
              if (!line) continue;
              const chars = Array.from(line);
              const entries = new Map();
              let second = "";
              let postings = "";
              for (let i = 1; i < chars.length; ++i) {
                if (chars[i].charCodeAt(0) < 128) {
                  postings += chars[i];
                  continue;
                }
                if (postings) entries.set(second, postings);
                second = chars[i];
                postings = "";
              }
              if (postings) entries.set(second, postings);
              out.set(chars[0], entries);
            }
            return out;
          })
        );
      }
      return this.files.get(key);
    }

    // Section → score for one word term: every indexed word that starts with it.
    async matchWord(term) {
      const d = await this.docs();
      const chars = Array.from(term);
      let keys;
      if (!d.split.has(chars[0])) keys = [chars[0]];
      else if (chars.length >= 2) keys = [chars[0] + chars[1]];
      else keys = Object.keys(d.words).filter((k) => k.startsWith(chars[0]));
      const files = new Set(keys.map((k) => d.words[k]).filter((f) => f !== undefined));
      const scores = new Map();
      for (const f of files) {
        for (const [word, postings] of await this.wordShard(f)) {
          if (!word.startsWith(term)) continue;
          for (const [s, w] of decodePostings(postings)) {
            const score = termScore(w, word === term);
            if (!(scores.get(s) >= score)) scores.set(s, score);
          }
        }
      }
      return scores;
    }

    // Section → score for one CJK run: one character by its unigram and every bigram it starts;
    // longer runs by the intersection of their bigrams (exact only for two characters; longer runs
    // are verified against the text before they are shown).
    async matchCjk(run) {
      const d = await this.docs();
      const chars = Array.from(run);
      const line = async (ch) => (await this.cjkShard(ch.codePointAt(0) % d.cjk)).get(ch);
      if (d.cjk === 0) return new Map();
      if (chars.length === 1) {
        const scores = new Map();
        const entries = await line(chars[0]);
        for (const postings of entries ? entries.values() : []) {
          for (const [s, w] of decodePostings(postings)) {
            const score = termScore(w, false);
            if (!(scores.get(s) >= score)) scores.set(s, score);
          }
        }
        return scores;
      }
      let scores = null;
      const lines = await Promise.all(chars.slice(0, -1).map(line));
      for (let k = 0; k + 1 < chars.length; ++k) {
        const postings = lines[k] && lines[k].get(chars[k + 1]);
        if (!postings) return new Map();
        const next = new Map();
        for (const [s, w] of decodePostings(postings)) {
          if (scores === null || scores.has(s))
            next.set(s, Math.min(termScore(w, true), scores === null ? Infinity : scores.get(s)));
        }
        scores = next;
      }
      return scores;
    }

    async sectionText(s) {
      const d = await this.docs();
      let lo = 0;
      let hi = d.chunks.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (d.chunks[mid] <= s) lo = mid;
        else hi = mid - 1;
      }
      const name = "t" + lo + ".json.gz";
      const key = "parsed:" + name;
      if (!this.files.has(key)) this.files.set(key, this.file(name).then(JSON.parse));
      return (await this.files.get(key))[s - d.chunks[lo]];
    }

    // Starts a query: ranks candidate sections from the postings alone. Results are then taken a page
    // at a time with `next(n)`, which fetches the texts (for snippets and to verify CJK runs).
    async search(query, options = {}) {
      const d = await this.docs();
      const terms = queryTerms(query);
      const width = options.width || (/^(zh|ja|ko)/.test(d.lang) ? 80 : 180);
      let total = null;
      const scored = await Promise.all(
        terms.map((t) => (t.kind === "word" ? this.matchWord(t.text) : this.matchCjk(t.text)))
      );
      for (const scores of scored) {
        if (total === null) {
          total = new Map(scores);
          continue;
        }
        for (const [s, v] of total) {
          if (scores.has(s)) total.set(s, v + scores.get(s));
          else total.delete(s);
        }
      }
      const candidates = total ? [...total].sort((a, b) => b[1] - a[1] || a[0] - b[0]) : [];
      const verify = terms.filter((t) => t.kind === "cjk" && Array.from(t.text).length >= 3);
      let position = 0;
      const self = this;
      return {
        terms,
        candidates: candidates.length,
        exact: verify.length === 0, // every candidate is a result
        get done() {
          return position >= candidates.length;
        },
        // Up to n more results that really contain every term.
        async next(n = 10) {
          const out = [];
          while (out.length < n && position < candidates.length) {
            const batch = candidates.slice(position, position + n - out.length);
            position += batch.length;
            const texts = await Promise.all(batch.map(([s]) => self.sectionText(s)));
            batch.forEach(([s, score], i) => {
              const [chapter, anchor, title] = d.sections[s];
              const text = texts[i];
              const ft = fold(title);
              const fx = foldMapped(text).s;
              if (!verify.every((t) => ft.includes(t.text) || fx.includes(t.text))) return;
              const [chapterTitle, page] = d.chapters[chapter];
              out.push({
                section: s,
                score,
                href: page + (anchor ? "#" + anchor : ""),
                chapter: chapterTitle,
                title,
                titleHtml: highlight(title, terms, Infinity),
                snippetHtml: highlight(text, terms, width),
              });
            });
          }
          return out;
        },
      };
    }
  }

  // ---- Snippets ----

  function escapeHtml(s) {
    return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }

  function codePointBefore(s, i) {
    if (i <= 0) return -1;
    const lo = s.charCodeAt(i - 1);
    if (lo >= 0xdc00 && lo <= 0xdfff && i >= 2) return s.codePointAt(i - 2);
    return lo;
  }

  // Where the terms occur in the folded text: words at the start of a word (the whole word is
  // marked), CJK runs anywhere. Returns sorted, non-overlapping [start, end, term] in folded units.
  function findMatches(f, terms) {
    const found = [];
    terms.forEach((t, ti) => {
      for (let p = f.indexOf(t.text); p !== -1 && found.length < 1000; p = f.indexOf(t.text, p + 1)) {
        let end = p + t.text.length;
        if (t.kind === "word") {
          const before = codePointBefore(f, p);
          if (before !== -1 && isWordChar(before)) continue;
          while (end < f.length) {
            const cp = f.codePointAt(end);
            if (!isWordChar(cp)) break;
            end += cp > 0xffff ? 2 : 1;
          }
        }
        found.push([p, end, ti]);
      }
    });
    found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    const out = [];
    for (const m of found) {
      if (out.length && m[0] < out[out.length - 1][1]) continue;
      out.push(m);
    }
    return out;
  }

  // The text (or a window of about `width` characters of it, around the place where most terms
  // occur together) as HTML with every match in <mark>.
  function highlight(text, terms, width) {
    const fm = foldMapped(text);
    const matches = findMatches(fm.s, terms).map(([a, b, t]) => [fm.from[a], fm.to[b - 1], t]);
    let start = 0;
    let end = text.length;
    if (text.length > width) {
      let best = 0;
      let bestCount = 0;
      for (let i = 0; i < matches.length; ++i) {
        const distinct = new Set();
        for (let j = i; j < matches.length && matches[j][0] < matches[i][0] + width * 0.7; ++j)
          distinct.add(matches[j][2]);
        if (distinct.size > bestCount) {
          bestCount = distinct.size;
          best = matches[i][0];
        }
      }
      // A quarter of the window before the matches, the full window when they are near the end; in
      // spaced scripts, start at a word.
      start = Math.max(0, Math.min(best - Math.floor(width / 4), text.length - width));
      const space = text.indexOf(" ", start);
      if (start > 0 && space !== -1 && space < best && space - start < width / 4) start = space + 1;
      if (start > 0 && /[\udc00-\udfff]/.test(text[start])) --start;
      end = Math.min(text.length, start + width);
      const cut = text.lastIndexOf(" ", end);
      if (end < text.length && cut > start + width * 0.75) end = cut;
      if (end < text.length && /[\udc00-\udfff]/.test(text[end])) ++end;
    }
    let html = start > 0 ? "…" : "";
    let at = start;
    for (const [a, b] of matches) {
      if (b <= start || a >= end) continue;
      const s = Math.max(a, start);
      const e = Math.min(b, end);
      html += escapeHtml(text.slice(at, s)) + "<mark>" + escapeHtml(text.slice(s, e)) + "</mark>";
      at = e;
    }
    html += escapeHtml(text.slice(at, end)) + (end < text.length ? "…" : "");
    return html;
  }

  const core = { fold, foldMapped, isCjk, isWordChar, tokenize, queryTerms, decodePostings, highlight, SearchIndex };
  if (typeof module === "object" && module.exports) module.exports = core;
  if (typeof document === "undefined") return;

  // ---- The page: a search box in the element with id "search", results below it. ----

  const MESSAGES = {
    en: { placeholder: "Search", none: "No results", more: "More results", results: (n) => n + " sections" },
    zh: { placeholder: "搜索", none: "没有找到结果", more: "更多结果", results: (n) => n + " 个小节" },
    "zh-hant": { placeholder: "搜尋", none: "沒有找到結果", more: "更多結果", results: (n) => n + " 個小節" },
    ru: { placeholder: "Поиск", none: "Ничего не найдено", more: "Ещё результаты", results: (n) => "Разделов: " + n },
  };
  function messages(lang) {
    lang = (lang || "en").toLowerCase();
    if (lang.startsWith("zh")) return /hant|tw|hk|mo/.test(lang) ? MESSAGES["zh-hant"] : MESSAGES.zh;
    return MESSAGES[lang.slice(0, 2)] || MESSAGES.en;
  }

  function attach(host) {
    const base = new URL(host.dataset.index || "search/", document.baseURI).href.replace(/\/?$/, "/");
    const editionRoot = new URL("../", base).href;
    const index = new SearchIndex(base, (url) =>
      fetch(url).then((r) => {
        if (!r.ok) throw new Error(url + ": " + r.status);
        return r.arrayBuffer();
      })
    );
    const msg = messages(document.documentElement.lang);
    // The page template renders the box, so that the page is laid out once, with it, before any script
    // runs; a page from an older or a custom template may have only the empty host.
    if (!host.querySelector(".search-input")) {
      host.classList.add("search");
      host.innerHTML =
        '<input type="search" class="search-input" autocomplete="off" spellcheck="false">' +
        '<div class="search-results" hidden><p class="search-status" aria-live="polite"></p>' +
        '<ol class="search-list"></ol><button type="button" class="search-more" hidden></button></div>';
    }
    const input = host.querySelector(".search-input");
    const panel = host.querySelector(".search-results");
    const status = host.querySelector(".search-status");
    const list = host.querySelector(".search-list");
    const more = host.querySelector(".search-more");
    const label = host.dataset.placeholder || msg.placeholder;  // the page's own word, when it gives one
    if (!input.placeholder) input.placeholder = label + " (/)";
    if (!input.hasAttribute("aria-label")) input.setAttribute("aria-label", label);
    more.textContent = msg.more;

    let session = null;
    let serial = 0;
    let timer = 0;

    function show(results) {
      for (const r of results) {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = new URL(r.href, editionRoot).href;
        a.innerHTML =
          '<span class="search-where">' + escapeHtml(r.chapter) + " › " + r.titleHtml + "</span>" +
          '<span class="search-snippet">' + r.snippetHtml + "</span>";
        a.addEventListener("click", close);
        li.appendChild(a);
        list.appendChild(li);
      }
    }

    async function run() {
      const mine = ++serial;
      const q = input.value.trim();
      if (!q) return close();
      try {
        const s = await index.search(q);
        if (mine !== serial) return;
        const first = await s.next(10);
        if (mine !== serial) return;
        session = s;
        list.textContent = "";
        show(first);
        status.textContent = !first.length ? msg.none : msg.results(s.exact ? s.candidates : s.done ? first.length : first.length + "+");
        more.hidden = s.done;
        panel.hidden = false;
      } catch (e) {
        if (mine === serial) {
          status.textContent = String(e.message || e);
          panel.hidden = false;
        }
      }
    }

    function close() {
      ++serial;
      panel.hidden = true;
      session = null;
    }

    input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(run, 120);
    });
    more.addEventListener("click", async () => {
      if (!session) return;
      const s = session;
      show(await s.next(10));
      if (s !== session) return;
      more.hidden = s.done;
      if (s.done && !s.exact) status.textContent = msg.results(list.children.length);
    });
    host.addEventListener("keydown", (e) => {
      const links = Array.from(list.querySelectorAll("a"));
      const i = links.indexOf(document.activeElement);
      if (e.key === "Escape") {
        close();
        input.blur();
      } else if (e.key === "ArrowDown" && links.length) {
        links[Math.min(i + 1, links.length - 1)].focus();
        e.preventDefault();
      } else if (e.key === "ArrowUp" && links.length) {
        if (i <= 0) input.focus();
        else links[i - 1].focus();
        e.preventDefault();
      } else if (e.key === "Enter" && document.activeElement === input && links.length) {
        links[0].click();
      }
    });
    input.addEventListener("focus", () => {
      if (input.value.trim() && list.children.length) panel.hidden = false;
    });
    document.addEventListener("click", (e) => {
      if (!host.contains(e.target)) panel.hidden = true;
    });
    document.addEventListener("keydown", (e) => {
      if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target;
      if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
      e.preventDefault();
      input.focus();
      input.select();
    });
  }

  function start() {
    const host = document.getElementById("search");
    if (host) attach(host);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
