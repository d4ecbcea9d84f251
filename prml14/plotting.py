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
"""

from __future__ import annotations

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
