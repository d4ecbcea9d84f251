"""Three fixes to the Sphinx build of the book, loaded by _config.yml as a local extension.

1. PDF (LaTeX): the equations keep PRML's numbers.

A page writes a numbered display as ``$$ ... \\tag{14.NN} $$``. MathJax honours the tag in
HTML, but Sphinx's LaTeX writer wraps every display in ``equation`` + ``split``, and amsmath
forbids ``\\tag`` inside ``split``. For the LaTeX builder this extension moves the tag out of the
``split`` (``\\begin{equation}\\tag{14.NN}\\label{...}\\begin{split}...``), so the PDF prints
(14.NN) and references to the label print the same number. HTML is not touched.

2. HTML: the same for MathJax. Sphinx wraps a display containing ``\\`` (an ``aligned``
block, say) in ``split``, and MathJax then reports "\\tag not allowed in split environment"
instead of showing the equation; the tag is moved after the ``split``.

3. HTML: each script appears once per page. sphinx-thebe registers its inline configuration
(``const THEBE_JS_URL = ...``) twice in this build, and the second copy is a JavaScript error
("Identifier 'THEBE_JS_URL' has already been declared") on every page; the browser test
(tests/test_browser.py) catches it.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.ext.mathjax import html_visit_displaymath
from sphinx.util.math import wrap_displaymath

__all__ = ["setup", "unique_scripts", "visit_math_block", "visit_math_block_html"]

TAG = re.compile(r"\\tag\{([^}]*)\}")


def visit_math_block(self, node):
    """Write a display equation; a single ``\\tag`` goes outside the ``split``."""
    text = node.astext()
    tags = TAG.findall(text)
    label = f"equation:{node['docname']}:{node['label']}" if node.get("label") else None
    if node.get("nowrap") or len(tags) != 1:
        if node.get("nowrap") and label:
            self.body.append(r"\label{" + label + "}")
        self.body.append(
            text
            if node.get("nowrap")
            else wrap_displaymath(text, label, self.config.math_number_all)
        )
        raise nodes.SkipNode
    wrapped = wrap_displaymath(TAG.sub("", text), label, True)
    self.body.append(
        wrapped.replace(r"\begin{equation}", r"\begin{equation}\tag{" + tags[0] + "}", 1)
    )
    raise nodes.SkipNode


def visit_math_block_html(self, node):
    """MathJax display: a single ``\\tag`` of a multi-line display goes after its ``split``."""
    text = node.astext()
    tags = TAG.findall(text)
    simple = len(tags) == 1 and "\n\n" not in text.strip() and r"\\" in text
    if node.get("nowrap") or node.get("number") or not simple:
        return html_visit_displaymath(self, node)
    opening, closing = self.builder.config.mathjax_display
    body = self.encode(TAG.sub("", text))
    self.body.append(self.starttag(node, "div", CLASS="math notranslate nohighlight"))
    self.body.append(
        opening + r"\begin{split}" + body + r"\end{split}\tag{" + tags[0] + "}" + closing
    )
    self.body.append("</div>\n")
    raise nodes.SkipNode


def unique_scripts(app, pagename, templatename, context, doctree):
    """Drop repeated entries (same file and same inline body) from a page's scripts."""
    seen, unique = set(), []
    for script in context.get("script_files", []):
        # an inline script is registered once with the file name None and once with ""
        key = (script.filename or "", script.priority, *sorted(script.attributes.items()))
        if key not in seen:
            seen.add(key)
            unique.append(script)
    context["script_files"] = unique


def setup(app):
    """Register the display-maths visitors and the script de-duplication."""
    app.add_node(
        nodes.math_block,
        override=True,
        html=(visit_math_block_html, None),
        latex=(visit_math_block, None),
    )
    app.connect("html-page-context", unique_scripts, priority=999)  # after the others
    return {"parallel_read_safe": True, "parallel_write_safe": True}
