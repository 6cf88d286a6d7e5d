#!/usr/bin/env python3
"""Generates an N-times book from a bookbuild book (this repository's own by default), for the scale
benchmark: every edition keeps its front matter once and gets N copies of its numbered chapters, so
that the result is a real book rather than repeated bytes: each copy's labels, footnotes and the
references to them get the copy's suffix (a copy refers to its own chapters), and each copy has its
own figure files (the SVG with a comment naming the copy, so that every figure is a distinct file to
convert). Up to 8 copies are chapters of their own, renumbered in sequence (copy k of chapter c is
chapter 12k + c for a 12-chapter book; the hand-written chapter number of each title follows); beyond
that, the copies are grouped, each group being one chapter whose sections repeat the copies' bodies,
so that a 100x book has about 100 chapters per edition (as a long real book does), not 1,200. Calc placeholders are kept: they name the
same scenarios, which the copy's `calculations` folder (a copy: bookbuild refuses a calculations folder
that links outside the book) provides. Every other top-level file or folder that book.toml names (the
[[filter]] scripts under filters/, the PDF cover under templates/) is copied as it is.

Usage: bench/scale/generate.py N OUT [BOOK]
"""
import os
import re
import shutil
import sys
import tomllib

LABEL = re.compile(r"(\{#|@)(ch|sec|fig|tbl|eq|ex|exp):([A-Za-z0-9_-]+)")
FOOTNOTE = re.compile(r"\[\^([^\]\s]+)\]")
MAX_CHAPTER_COPIES = 8
FIGURE = re.compile(r"\]\((figures/)([^)\s#]+)")
KEY = re.compile(r"^(?:(\d+)-.*|chapter(\d+)|ch(\d+))\.md$")
TITLE_NUMBER = re.compile(r"\d+")


def chapter_number(name):
    m = KEY.match(name)
    if not m:
        return None
    return int(next(g for g in m.groups() if g is not None))


def renamed(name, number):
    """The file name of chapter `number` in the pattern of `name` (04-x.md, chapter04.md, chapter4.md)."""
    m = KEY.match(name)
    digits = next(g for g in m.groups() if g is not None)
    width = len(digits)
    start = m.start(next(i for i, g in enumerate(m.groups(), 1) if g is not None))
    return name[:start] + str(number).zfill(width) + name[start + len(digits):]


def copy_chapter(text, copy, number, lead=None):
    """Copy `copy` of a chapter, as chapter `number`. `lead` is the first copy of the group of copies
    that share one chapter (None: the copy is a chapter of its own): the others lose their title, and
    every copy refers to chapters by the labels of its group's lead, which the chapters keep."""
    if copy > 0:
        text = LABEL.sub(lambda m: f"{m.group(1)}{m.group(2)}:{m.group(3)}-c{copy}", text)
        text = FIGURE.sub(lambda m: f"]({m.group(1)}c{copy}/{m.group(2)}", text)
        text = FOOTNOTE.sub(lambda m: f"[^{m.group(1)}-c{copy}]", text)
    lines = text.split("\n")
    if lead is not None and copy != lead:
        suffix = f"-c{lead}" if lead else ""
        text = re.sub(rf"@ch:([A-Za-z0-9_-]+?)-c{copy}\b", lambda m: f"@ch:{m.group(1)}{suffix}", text)
        lines = text.split("\n")
        title = next((i for i, line in enumerate(lines) if line.startswith("# ")), None)
        if title is not None:
            del lines[title]
        return "\n".join(lines)
    for i, line in enumerate(lines):
        if line.startswith("# "):
            lines[i] = TITLE_NUMBER.sub(str(number), line, count=1)
            break
    return "\n".join(lines)


def copy_figures(src, dst, copy):
    """The edition's figures folder for one copy: SVGs marked with the copy, other files linked."""
    os.makedirs(dst, exist_ok=True)
    for name in os.listdir(src):
        path = os.path.join(src, name)
        if not os.path.isfile(path):
            continue
        if name.endswith(".svg"):
            with open(path, encoding="utf-8") as f:
                svg = f.read()
            at = svg.find("?>") + 2 if svg.startswith("<?xml") else 0
            svg = svg[:at] + f"<!-- copy {copy} -->" + svg[at:]
            with open(os.path.join(dst, name), "w", encoding="utf-8") as f:
                f.write(svg)
        else:
            os.link(path, os.path.join(dst, name)) if same_device(path, dst) else shutil.copy(path, dst)


def same_device(a, b):
    return os.stat(a).st_dev == os.stat(b).st_dev


def named_tops(config, book):
    """The top-level files and folders of the book that book.toml names (filters/ for a [[filter]]
    path, templates/ for a pdf-cover, …): the copy needs them, or every job stops at the missing
    file. A string counts when its first path component exists in the book ("." does not: it names
    the book itself)."""
    tops = set()

    def walk(value):
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str) and "://" not in value and not os.path.isabs(value):
            top = os.path.normpath(value).split(os.sep)[0]
            if top not in (".", "..", "") and os.path.exists(os.path.join(book, top)):
                tops.add(top)

    walk(config)
    return tops


def copy_top(src, dst):
    if os.path.isdir(src):
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".cache"))
    else:
        shutil.copy(src, dst)


def toml_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    n = int(sys.argv[1])
    out = os.path.abspath(sys.argv[2])
    book = os.path.abspath(sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(__file__), "../.."))
    with open(os.path.join(book, "book.toml"), "rb") as f:
        config = tomllib.load(f)
    with open(os.path.join(book, "book.toml"), encoding="utf-8") as f:
        raw = f.read()
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    calculations = config.get("book", {}).get("calculations", "calculations")
    shutil.copytree(os.path.join(book, calculations), os.path.join(out, calculations))
    editions = {e.get("folder", e["id"]).split("/")[0] for e in config["edition"]}
    for top in named_tops(config, book) - editions - {calculations}:
        copy_top(os.path.join(book, top), os.path.join(out, top))

    # book.toml: the original, with each edition's chapter list replaced.
    lists = {}
    for edition in config["edition"]:
        folder = edition.get("folder", edition["id"])
        src, dst = os.path.join(book, folder), os.path.join(out, folder)
        os.makedirs(dst, exist_ok=True)
        numbered = [c for c in edition["chapters"] if chapter_number(c)]
        front = [c for c in edition["chapters"] if not chapter_number(c) or chapter_number(c) == 0]
        numbered = [c for c in numbered if c not in front]
        per_copy = max(chapter_number(c) for c in numbered)
        chapters = list(front)
        for c in front:
            shutil.copy(os.path.join(src, c), dst)
        per_group = -(-n // MAX_CHAPTER_COPIES)  # copies per chapter
        groups = -(-n // per_group)
        for copy in range(n):
            if os.path.isdir(os.path.join(src, "figures")):
                copy_figures(os.path.join(src, "figures"),
                             os.path.join(dst, "figures", f"c{copy}") if copy else os.path.join(dst, "figures"),
                             copy)
        for group in range(groups):
            lead = group * per_group
            copies = range(lead, min(lead + per_group, n))
            for c in numbered:
                number = group * per_copy + chapter_number(c)
                name = renamed(c, number)
                with open(os.path.join(src, c), encoding="utf-8") as f:
                    text = f.read()
                parts = [copy_chapter(text, k, number, lead if n > groups else None) for k in copies]
                with open(os.path.join(dst, name), "w", encoding="utf-8") as f:
                    f.write("\n\n".join(parts))
                chapters.append(name)
        lists[edition["id"]] = chapters

    blocks = re.split(r"(?m)^(?=\[\[edition\]\])", raw)
    result = [blocks[0]]
    for block in blocks[1:]:
        eid = re.search(r'(?m)^id\s*=\s*"([^"]+)"', block).group(1)
        chapters = "[" + ", ".join(toml_string(c) for c in lists[eid]) + "]"
        result.append(re.sub(r"(?m)^chapters\s*=\s*\[.*\]$", lambda _: "chapters = " + chapters, block, count=1))
    with open(os.path.join(out, "book.toml"), "w", encoding="utf-8") as f:
        f.write("".join(result))
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs if f.endswith(".md"))
    print(f"{n}x book in {out}: {sum(len(v) for v in lists.values())} chapter files, {size / 1e6:.2f} MB of Markdown")


if __name__ == "__main__":
    main()
