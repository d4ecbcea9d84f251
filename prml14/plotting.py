"""One figure style for every page of the book.

The palette is Okabe & Ito's colour-blind-safe set. Each *role* keeps one colour everywhere in
the book, so a reader who has learnt that vermillion means "class t = +1" and sky blue "a
committee member" never has to re-learn it:

=================  ==========================================================
role               used for
=================  ==========================================================
``positive``       class t = +1 (or t = 1 for 0/1 targets)
``negative``       class t = -1 (or t = 0)
``member``         individual models: committee members, weak learners, experts
``combined``       the combined model: committee, boosted ensemble, mixture
``truth``          the true function or density that generated the data
``data``           observed data points without a class
``highlight``      the element under discussion (latest stump, current split)
=================  ==========================================================

Figures have an opaque white background so they read on the light and the dark theme alike.

A figure that shows a process (boosting rounds, a pruning path, EM iterations) can be *driven*:
:func:`driven_figure` draws it once per state and returns a :class:`DrivenFigure`, which a
notebook shows as the frames with a slider of its own (HTML with a few lines of inline
JavaScript: no kernel, no network, no ipywidgets), identical in Jupyter, Colab and the built
book, and which the PDF shows as one representative frame with a note that the HTML version
can be driven.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import json
import re

import matplotlib as mpl
import numpy as np

__all__ = [
    "OKABE_ITO",
    "ROLE_COLORS",
    "COMPONENT_COLORS",
    "STYLE",
    "use_style",
    "class_colors",
    "decision_grid",
    "DrivenFigure",
    "driven_figure",
]

#: Okabe & Ito (2008) colours, by name.
OKABE_ITO = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
}

#: The colour of each role (see the module docstring).
ROLE_COLORS = {
    "positive": OKABE_ITO["vermillion"],
    "negative": OKABE_ITO["blue"],
    "member": OKABE_ITO["sky_blue"],
    "combined": OKABE_ITO["black"],
    "truth": OKABE_ITO["bluish_green"],
    "data": OKABE_ITO["orange"],
    "highlight": OKABE_ITO["reddish_purple"],
}

#: A cycle for K components/experts/models when each needs its own colour.
COMPONENT_COLORS = [
    OKABE_ITO[name]
    for name in (
        "orange",
        "sky_blue",
        "bluish_green",
        "reddish_purple",
        "vermillion",
        "blue",
        "yellow",
    )
]

#: The matplotlib settings that :func:`use_style` applies.
STYLE = {
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
    "axes.facecolor": "white",
    "axes.edgecolor": "#333333",
    "axes.labelcolor": "#222222",
    "text.color": "#222222",
    "xtick.color": "#333333",
    "ytick.color": "#333333",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    # Sizes for figures at most about 8 inches wide, which the book shows at (nearly) their
    # natural size: the smallest text is then as large as the body text's small size.
    "axes.titlesize": 12,
    "axes.labelsize": 11.5,
    "legend.fontsize": 10.5,
    "legend.frameon": False,
    "xtick.labelsize": 10.5,
    "ytick.labelsize": 10.5,
    "lines.linewidth": 1.8,
    "lines.markersize": 5,
    "axes.prop_cycle": mpl.cycler(color=COMPONENT_COLORS),
    "image.cmap": "cividis",
}


def use_style():
    """Apply the book's figure style to matplotlib's global settings."""
    mpl.rcParams.update(STYLE)


def class_colors(t):
    """Colours for binary labels: ``positive`` for t > 0 (t = +1 or 1), ``negative`` otherwise.

    Parameters
    ----------
    t : array-like of shape (n_samples,)
        Labels in {-1, +1} or {0, 1}.

    Returns
    -------
    ndarray of str, shape (n_samples,)
        One hexadecimal colour per label.
    """
    t = np.asarray(t)
    return np.where(t > 0, ROLE_COLORS["positive"], ROLE_COLORS["negative"])


def decision_grid(X, resolution=200, margin=0.1):
    """A regular grid covering the range of 2-D inputs, for plotting decision regions.

    Parameters
    ----------
    X : ndarray of shape (n_samples, 2)
        The inputs whose range the grid covers.
    resolution : int, default=200
        Grid points along each axis.
    margin : float, default=0.1
        Fraction of each axis' range added on both sides.

    Returns
    -------
    xx : ndarray of shape (resolution, resolution)
        The first coordinate of the grid points (``np.meshgrid``).
    yy : ndarray of shape (resolution, resolution)
        The second coordinate.
    points : ndarray of shape (resolution**2, 2)
        The same points as rows, ready for ``predict``.
    """
    X = np.asarray(X, dtype=float)
    low, high = X.min(axis=0), X.max(axis=0)
    pad = margin * (high - low)
    axes = [np.linspace(low[i] - pad[i], high[i] + pad[i], resolution) for i in range(2)]
    xx, yy = np.meshgrid(*axes)
    return xx, yy, np.column_stack([xx.ravel(), yy.ravel()])


# The slider's script, inlined in every driven figure's HTML so that Jupyter and Colab run it
# as the built book does. It finds its figure by id, reads the frames and labels from the JSON
# beside it, and shows frame i when the slider's value becomes i.
_SLIDER_SCRIPT = """(function () {
  const root = document.getElementById("%(id)s");
  if (root === null || root.dataset.ready === "1") return;
  root.dataset.ready = "1";
  const data = JSON.parse(root.querySelector(".prml14-driven-data").textContent);
  const img = root.querySelector(".prml14-driven-frame");
  const slider = root.querySelector(".prml14-driven-slider");
  const label = root.querySelector(".prml14-driven-label");
  function show(i) {
    img.src = data.frames[i];
    img.alt = data.alt + " (" + data.labels[i] + ")";
    label.textContent = data.labels[i];
    slider.setAttribute("aria-valuetext", data.labels[i]);
  }
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  show(Number(slider.value));
})();"""

# Inline styles, so that the control looks the same without the book's style sheet (Jupyter,
# Colab): a light card that stays legible in a dark theme.
_CARD_STYLE = (
    "background:#fff;color:#222;border-radius:6px;padding:6px 8px;margin:0.5em 0;"
    "max-width:100%;box-sizing:border-box"
)
_IMAGE_STYLE = "display:block;max-width:100%;height:auto;margin:0 auto"
_CONTROL_STYLE = "display:flex;align-items:center;gap:0.75em;margin-top:4px;font-size:0.95em"


def _png_bytes(fig, colors, still=False):
    """``fig`` as a PNG with ``colors`` palette colours (None: full RGB).

    A frame is drawn once at the figure's own size and resolution; the still (``still=True``)
    is cropped to what is drawn, so that a note below the axes is kept.
    """
    from PIL import Image  # a dependency of matplotlib

    buffer = io.BytesIO()
    if still:
        fig.savefig(buffer, format="png", bbox_inches="tight", pad_inches=0.1)
        buffer.seek(0)
        image = Image.open(buffer).convert("RGB")
    else:
        fig.canvas.draw()
        width, height = fig.canvas.get_width_height(physical=True)
        image = Image.frombuffer("RGBA", (width, height), fig.canvas.buffer_rgba()).convert("RGB")
    if colors is not None:
        image = image.quantize(
            colors=colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


class DrivenFigure:
    """Precomputed frames of one figure, shown with a slider (see :func:`driven_figure`).

    In a notebook the object displays as HTML (the frame, a range slider and the label of the
    state shown, with its script inlined) and as a PNG (the representative frame with a note
    that the HTML version can be driven); Jupyter, Colab and the HTML book pick the HTML, the
    PDF (LaTeX) build picks the PNG.

    Parameters
    ----------
    frames : list of bytes
        One PNG image per state.
    labels : list of str
        One label per state, shown beside the slider (e.g. ``"m = 3"``).
    still : bytes
        The PNG shown where no slider can be (the PDF): the frame of state ``start`` with its
        note.
    name : str
        What the slider moves, for its accessible label (e.g. ``"boosting round"``).
    start : int
        Index of the state shown first.
    alt : str
        A short description of the figure, for the image's alternative text.

    Attributes
    ----------
    id : str
        The HTML id of the figure: the name and a digest of the frames and labels, so that two
        figures on a page never share one and a re-run gives the same id.
    """

    def __init__(self, frames, labels, still, *, name, start, alt):
        self.frames = list(frames)
        self.labels = [str(label) for label in labels]
        self.still = still
        self.name = str(name)
        self.start = int(start)
        self.alt = str(alt)
        digest = hashlib.sha1(json.dumps(self.labels).encode())
        for frame in self.frames:
            digest.update(frame)
        slug = re.sub(r"[^a-z0-9]+", "-", self.name.lower()).strip("-") or "figure"
        self.id = f"prml14-driven-{slug}-{digest.hexdigest()[:10]}"

    def __len__(self):
        return len(self.frames)

    def frame_uris(self):
        """The frames as data URIs, in the order of the states.

        Returns
        -------
        list of str
            ``data:image/png;base64,...``, one per state.
        """
        return [
            "data:image/png;base64," + base64.b64encode(frame).decode("ascii")
            for frame in self.frames
        ]

    def _repr_html_(self):
        uris = self.frame_uris()
        data = json.dumps({"frames": uris, "labels": self.labels, "alt": self.alt})
        # "</" cannot end the JSON's script element early
        data = data.replace("</", "<\\/")
        label = html.escape(self.labels[self.start])
        name = html.escape(self.name, quote=True)
        alt = html.escape(f"{self.alt} ({self.labels[self.start]})", quote=True)
        return (
            f'<div class="prml14-driven" id="{self.id}" style="{_CARD_STYLE}">'
            f'<img class="prml14-driven-frame" src="{uris[self.start]}" alt="{alt}" '
            f'style="{_IMAGE_STYLE}">'
            f'<div class="prml14-driven-control" style="{_CONTROL_STYLE}">'
            f'<input class="prml14-driven-slider" type="range" min="0" '
            f'max="{len(uris) - 1}" step="1" value="{self.start}" aria-label="{name}" '
            f'aria-valuetext="{label}" style="flex:1 1 auto;min-width:0">'
            f'<output class="prml14-driven-label" aria-live="polite" '
            f'style="min-width:9em;font-variant-numeric:tabular-nums">{label}</output></div>'
            f'<script type="application/json" class="prml14-driven-data">{data}</script>'
            f"<script>{_SLIDER_SCRIPT % {'id': self.id}}</script></div>"
        )

    def _repr_png_(self):
        return self.still

    def __repr__(self):
        return (
            f"<DrivenFigure {self.name!r}: {len(self)} states, "
            f"{self.labels[0]} ... {self.labels[-1]}>"
        )


def driven_figure(fig, draw, states, labels, *, name, start=-1, alt=None, dpi=100, colors=64):
    """Draw a figure once per state and return it as a figure with a slider.

    The page computes the states with the package (a list of fitted models, of EM iterates,
    of pruning levels); ``draw`` redraws ``fig`` for one of them. Each frame is a palette PNG
    (``colors`` colours, which keeps a frame of a line-and-scatter figure near 20-40 kB); the
    figure is closed afterwards, so that a notebook shows the slider and not the last frame
    once more. The layout (``layout="constrained"``, say) is computed once, for the state shown
    first, and kept for every frame, so that the axes do not move under the slider.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure ``draw`` draws into; its size is the size of every frame.
    draw : callable
        ``draw(state)`` redraws ``fig`` for one state (clearing what changes).
    states : sequence
        The states, in slider order.
    labels : sequence of str
        One label per state, shown beside the slider (e.g. ``"m = 3"``).
    name : str
        What the slider moves (e.g. ``"boosting round m"``): its accessible label.
    start : int, default=-1
        Index of the state shown first and in the PDF (negative counts from the end).
    alt : str or None, default=None
        Alternative text of the image; None uses ``name``.
    dpi : float, default=100
        Resolution of the frames.
    colors : int or None, default=64
        Palette size of each frame (2-256); None keeps full-colour PNGs.

    Returns
    -------
    DrivenFigure
        The frames, labels and representative still, displayed as HTML with a slider.

    Raises
    ------
    ValueError
        If ``states`` is empty, ``labels`` does not have one label per state, ``start`` is
        out of range or ``colors`` is outside 2-256.
    TypeError
        If ``draw`` is not callable.
    """
    from matplotlib import pyplot as plt

    states = list(states)
    labels = [str(label) for label in labels]
    if not callable(draw):
        raise TypeError(f"draw must be callable, got {type(draw).__name__}")
    if len(states) == 0:
        raise ValueError("states must hold at least one state")
    if len(labels) != len(states):
        raise ValueError(f"labels must hold one label per state: {len(labels)} != {len(states)}")
    if not -len(states) <= start < len(states):
        raise ValueError(f"start must index one of the {len(states)} states, got {start}")
    if colors is not None and not 2 <= colors <= 256:
        raise ValueError(f"colors must be between 2 and 256 (or None), got {colors}")
    start = start % len(states)
    fig.set_dpi(dpi)
    # lay the figure out once, for the first state shown, and keep that layout: the axes do
    # not move between frames, and each frame is drawn once
    draw(states[start])
    fig.canvas.draw()
    fig.set_layout_engine("none")
    frames = []
    for state in states:
        draw(state)
        frames.append(_png_bytes(fig, colors))
    draw(states[start])
    note = fig.text(
        0.5,
        0,
        f"Shown: {labels[start]}. The HTML version of this page has a slider over "
        f"{labels[0]} ... {labels[-1]}.",
        ha="center",
        va="top",
        fontsize=9,
        style="italic",
    )
    with mpl.rc_context({"savefig.dpi": dpi, "savefig.facecolor": "white"}):
        still = _png_bytes(fig, colors, still=True)
    note.remove()
    plt.close(fig)
    return DrivenFigure(frames, labels, still, name=name, start=start, alt=alt or name)
