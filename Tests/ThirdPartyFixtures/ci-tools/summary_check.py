"""Renders the Markdown summary that `appflip audit --summary-markdown` wrote as GitHub does, GFM tables on
(markdown-it-py, pinned), and prints what a reader of the job's page sees, as JSON on stdout:
    python summary_check.py FILE

- `bytes`: the file's size, to hold against GitHub's 1 MiB step summary;
- `tables`: each table, its header cells and its rows' cells, as text;
- `headings`: each heading's text (a check's section starts with one), in order;
- `codeBlocks`: the number of fenced code blocks (the evidence), and `details`: the `<summary>` of each
  collapsed block;
- `html`: the rendered page.
"""
import json
import pathlib
import re
import sys

from markdown_it import MarkdownIt

raw = pathlib.Path(sys.argv[1]).read_bytes()
source = raw.decode("utf-8")
markdown = MarkdownIt("commonmark", {"html": True}).enable("table")
tokens = markdown.parse(source)

tables = []
headings = []
code_blocks = 0
index = 0
while index < len(tokens):
    token = tokens[index]
    if token.type == "table_open":
        table = {"header": [], "rows": []}
        row = None
        in_head = False
        while tokens[index].type != "table_close":
            kind = tokens[index].type
            if kind == "thead_open":
                in_head = True
            elif kind == "thead_close":
                in_head = False
            elif kind == "tr_open":
                row = []
            elif kind == "inline":
                row.append("".join(child.content for child in tokens[index].children or [] if child.type in ("text", "code_inline")))
            elif kind == "tr_close":
                (table["header"].extend(row) if in_head else table["rows"].append(row))
            index += 1
        tables.append(table)
    elif token.type == "heading_open":
        inline = tokens[index + 1]
        headings.append("".join(child.content for child in inline.children or [] if child.type in ("text", "code_inline")))
    elif token.type == "fence":
        code_blocks += 1
    index += 1

html = markdown.render(source)
json.dump(
    {
        "bytes": len(raw),
        "tables": tables,
        "headings": headings,
        "codeBlocks": code_blocks,
        "details": re.findall(r"<summary>(.*?)</summary>", html),
        "html": html,
    },
    sys.stdout,
)
