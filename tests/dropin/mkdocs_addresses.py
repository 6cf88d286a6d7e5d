#!/usr/bin/env python3
"""Builds a book in the real layout with MkDocs itself, as the real book's scripts/build_site.py does
(one MkDocs site per edition: Simplified Chinese at the root, the translations under en/ and zh-tw/,
use_directory_urls off, toc with pymdownx.slugs.uslugify), then checks that every page address and
every heading id of that site resolves on bookbuild's site: the address is a page or a redirect page
to one, and the page it ends on has an element with that id.

usage: mkdocs_addresses.py BOOKBUILD BOOK WORKDIR     (exit 77: skipped, no book or no MkDocs)
"""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

SKIP = 77
# (edition, folder in the book, site folder, chapter files)
EDITIONS = [('zh', 'manuscripts', '', lambda f: re.fullmatch(r'\d\d-.*\.md', f)),
            ('en', 'book-en', 'en/', lambda f: re.fullmatch(r'(introduction|chapter\d\d)\.md', f)),
            ('zh-tw', 'book-zh-tw', 'zh-tw/', lambda f: re.fullmatch(r'(introduction|chapter\d\d)\.md', f))]
# The real book's markdown_extensions (its mkdocs.yml).
EXTENSIONS = ['admonition', 'attr_list', 'footnotes', 'tables',
              {'toc': {'permalink': True, 'slugify': '!!python/name:pymdownx.slugs.uslugify'}},
              'pymdownx.superfences', {'pymdownx.arithmatex': {'generic': True}}]


class Ids(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.headings, self.all, self.refresh = [], set(), None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if 'id' in a:
            self.all.add(a['id'])
            if re.fullmatch(r'h[1-6]', tag):
                self.headings.append(a['id'])
        if tag == 'meta' and (a.get('http-equiv') or '').lower() == 'refresh':
            self.refresh = re.sub(r'^\s*\d+\s*;\s*url=', '', a.get('content', ''), flags=re.I)


def parse(path):
    p = Ids()
    p.feed(path.read_text(encoding='utf-8'))
    return p


def yaml_of(config):
    # JSON is YAML; the slugify function needs the !!python/name tag, unquoted.
    text = json.dumps(config, ensure_ascii=False, indent=1)
    return text.replace('"!!python/name:pymdownx.slugs.uslugify"', '!!python/name:pymdownx.slugs.uslugify')


def mkdocs_site(book, work):
    """Every page path of the MkDocs sites → its heading ids."""
    pages = {}
    site = work / 'mkdocs-site'
    for edition, folder, prefix, is_chapter in EDITIONS:
        source = book / folder
        if not source.is_dir():
            continue
        docs = work / 'docs' / edition
        shutil.rmtree(docs, ignore_errors=True)
        # The source edition's pages keep the repository folder: its docs folder was the root.
        into = docs / folder if edition == 'zh' else docs
        into.mkdir(parents=True)
        names = sorted(f for f in os.listdir(source) if is_chapter(f))
        for name in names:
            shutil.copy(source / name, into / name)
        home = book / 'website' / ('index.md' if edition == 'zh' else f'index.{edition}.md')
        (docs / 'index.md').write_text(home.read_text(encoding='utf-8') if home.is_file() else '# Home\n',
                                       encoding='utf-8')
        config = {'site_name': edition, 'docs_dir': str(docs), 'site_dir': str(site / prefix).rstrip('/'),
                  'use_directory_urls': False, 'theme': {'name': 'material'},
                  'markdown_extensions': EXTENSIONS}
        cfg = work / f'mkdocs-{edition}.yml'
        cfg.write_text(yaml_of(config), encoding='utf-8')
        # The root site first: MkDocs empties its site_dir, which holds the others.
        subprocess.run(['mkdocs', 'build', '--quiet', '-f', str(cfg)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # A stand-in home page (the book has none) is checked for its address only.
        pages[prefix + 'index.html'] = parse(site / prefix / 'index.html').headings if home.is_file() else []
        for name in names:
            rel = (folder + '/' if edition == 'zh' else '') + name[:-3] + '.html'
            pages[prefix + rel] = parse(site / prefix / rel).headings
    return pages


def main():
    exe, book, work = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    if not book.is_dir():
        print(f'SKIP: no corpus at {book}')
        return SKIP
    if not shutil.which('mkdocs'):
        print('SKIP: mkdocs is not installed (Debian: mkdocs mkdocs-material python3-pymdownx)')
        return SKIP
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    # The book without its calculations/: this is about addresses, and the corpus's calc data is a Git
    # LFS pointer that stops any build (its own problem, not this test's). With home pages written
    # in Markdown (fixtures/website/), as the real book has: they are the editions' home pages.
    copy = work / 'book'
    shutil.copytree(book, copy, ignore=lambda d, names: ['calculations'] if Path(d) == book else [])
    shutil.copytree(Path(__file__).parent / 'fixtures' / 'website', copy / 'website')
    pages = mkdocs_site(copy, work)
    out = work / 'bookbuild-site'
    run = subprocess.run([str(exe), '--book', str(copy), '--out', str(out), 'site'],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if run.returncode != 0:
        print(run.stdout[-4000:])
        print('bookbuild site failed')
        return 1
    site = out / 'site' if (out / 'site').is_dir() else out
    missing, ids = [], 0
    for page, headings in sorted(pages.items()):
        path = site / page
        if not path.is_file():
            missing.append(f'{page}: no such page')
            continue
        target = parse(path)
        end = path
        if target.refresh is not None:
            end = (path.parent / target.refresh).resolve()
            if not end.is_file():
                missing.append(f'{page}: redirects to {target.refresh}, which does not exist')
                continue
            target = parse(end)
        for h in headings:
            ids += 1
            if h not in target.all:
                missing.append(f'{page}#{h}: no such id on {end.relative_to(site.resolve()) if end.is_absolute() else end}')
    for m in missing:
        print(m)
    print(f'{len(pages)} MkDocs pages, {ids} heading ids; {len(missing)} do not resolve on bookbuild\'s site')
    return 1 if missing or not ids else 0


if __name__ == '__main__':
    sys.exit(main())
