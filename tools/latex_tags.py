"""Sphinx extension for the PDF (LaTeX) build: the equations keep PRML's numbers.

A page writes a numbered display as ``$$ ... \\tag{14.NN} $$``. MathJax honours the tag in
HTML, but Sphinx's LaTeX writer wraps every display in ``equation`` + ``split``, and amsmath
forbids ``\\tag`` inside ``split``. For the LaTeX builder this extension moves the tag out of the
``split`` (``\\begin{equation}\\tag{14.NN}\\label{...}\\begin{split}...``), so the PDF prints
(14.NN) and references to the label print the same number. HTML is not touched.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.util.math import wrap_displaymath

__all__ = ["setup", "visit_math_block"]

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


def setup(app):
    """Register the LaTeX visitor for display maths."""
    app.add_node(nodes.math_block, override=True, latex=(visit_math_block, None))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
