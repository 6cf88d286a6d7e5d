#!/usr/bin/env python3
"""Generates a real-size edition from the shared sample of the real Traditional Chinese edition
(../shared/corpus/zh-tw: the preface and chapters 1-6, about 0.38 M characters and 219 figures), for the
peer benchmark (bench/peers.sh): the complete edition has 13 files, 0.74 M characters and 484 figures,
and only half of it is shared. Chapters 7-12 are made from chapters 1-6 (chapter k + 6 from chapter k):
the file renamed, the hand-written numbers of its title, headings, figures, tables, examples, equations
and section references moved by 6 (`第 3 章` -> `第 9 章`, `## 3.2` -> `## 9.2`, `圖 3-4` -> `圖 9-4`,
`\\tag{6-1}` -> `\\tag{12-1}`), its figures read from a folder of their own (`ch03/` -> `ch09/`, each SVG
marked with a comment so that every figure is a distinct file). References from a copy to other
chapters are left as they are: they point into the book as the original did. The result: 13 files,
about 0.75 M characters, 438 figures; the calculations folder is copied (bookbuild refuses one that
links outside the book).

Usage: bench/edition/generate.py OUT [SAMPLE]   (SAMPLE: default ../shared/corpus/zh-tw)
"""
import os
import re
import shutil
import sys

EDITION = "book-zh-tw"
SHIFT = 6
CHAPTER = re.compile(r"^chapter(\d+)\.md$")


def renumber(text, old, new):
    """Chapter `old`'s numbers in its own text made chapter `new`'s."""
    o = str(old)
    # Headings: `# 第 3 章 …`, `## 3.2 …`, `### 3.2.1 …`.
    text = re.sub(rf"(?m)^(#+\s+)第\s*{o}\s*章", lambda m: f"{m.group(1)}第 {new} 章", text)
    text = re.sub(rf"(?m)^(#+\s+){o}(?=\.\d)", lambda m: f"{m.group(1)}{new}", text)
    # Numbered things of this chapter, in captions and in the prose that cites them.
    words = r"(圖|表|例|實驗|式（|式\(|\\tag\{|第\s?)"
    text = re.sub(rf"{words}(\s?){o}(?=[-.]\d)", lambda m: f"{m.group(1)}{m.group(2)}{new}", text)
    text = re.sub(rf"(第\s?){o}(\s?章)", lambda m: f"{m.group(1)}{new}{m.group(2)}", text)
    # Its figures, in a folder of their own.
    text = re.sub(rf"\]\(ch0*{o}/", f"](ch{new:02d}/", text)
    return text


def copy_figures(src, dst, copy_of):
    os.makedirs(dst, exist_ok=True)
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            data = f.read()
        if name.endswith(".svg"):
            at = data.find(b"?>") + 2 if data.startswith(b"<?xml") else 0
            data = data[:at] + f"<!-- copy of chapter {copy_of} -->".encode() + data[at:]
        with open(os.path.join(dst, name), "wb") as f:
            f.write(data)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = os.path.abspath(sys.argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    sample = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "../../../shared/corpus/zh-tw"))
    src = os.path.join(sample, EDITION)
    if not os.path.isdir(src):
        sys.exit(f"no {EDITION} in {sample}")
    if os.path.exists(out):
        shutil.rmtree(out)
    dst = os.path.join(out, EDITION)
    shutil.copytree(src, dst)
    if os.path.isdir(os.path.join(sample, "calculations")):
        shutil.copytree(os.path.join(sample, "calculations"), os.path.join(out, "calculations"))
    for name in sorted(os.listdir(src)):
        m = CHAPTER.match(name)
        if not m:
            continue
        old = int(m.group(1))
        new = old + SHIFT
        with open(os.path.join(src, name), encoding="utf-8") as f:
            text = f.read()
        with open(os.path.join(dst, f"chapter{new:02d}.md"), "w", encoding="utf-8") as f:
            f.write(renumber(text, old, new))
        figures = os.path.join(src, f"ch{old:02d}")
        if os.path.isdir(figures):
            copy_figures(figures, os.path.join(dst, f"ch{new:02d}"), old)
    files = [f for f in os.listdir(dst) if f.endswith(".md")]
    chars = sum(len(open(os.path.join(dst, f), encoding="utf-8").read()) for f in files)
    figures = sum(len(fs) for d, _, fs in os.walk(dst) if os.path.basename(d).startswith("ch"))
    print(f"real-size edition in {out}: {len(files)} files, {chars / 1e6:.2f} M characters, {figures} figure files")


if __name__ == "__main__":
    main()
