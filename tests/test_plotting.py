import matplotlib as mpl
import numpy as np
from matplotlib.colors import to_rgb

from prml14.plotting import (
    COMPONENT_COLORS,
    OKABE_ITO,
    ROLE_COLORS,
    class_colors,
    decision_grid,
    use_style,
)


def test_roles_have_distinct_palette_colours():
    assert set(ROLE_COLORS.values()) <= set(OKABE_ITO.values())
    assert len(set(ROLE_COLORS.values())) == len(ROLE_COLORS)
    assert len(set(COMPONENT_COLORS)) == len(COMPONENT_COLORS)


def test_class_colours_follow_the_sign_for_both_label_conventions():
    for labels in ([-1, 1, 1], [0, 1, 1]):
        colors = class_colors(labels)
        assert list(colors) == [
            ROLE_COLORS["negative"],
            ROLE_COLORS["positive"],
            ROLE_COLORS["positive"],
        ]


def test_decision_grid_covers_the_data_with_a_margin():
    X = np.array([[0.0, 10.0], [1.0, 20.0]])
    xx, yy, points = decision_grid(X, resolution=11, margin=0.1)
    assert xx.shape == yy.shape == (11, 11) and points.shape == (121, 2)
    np.testing.assert_allclose(points.min(axis=0), [-0.1, 9.0])
    np.testing.assert_allclose(points.max(axis=0), [1.1, 21.0])


def test_use_style_gives_opaque_white_figures():
    with mpl.rc_context():
        use_style()
        assert to_rgb(mpl.rcParams["figure.facecolor"]) == (1.0, 1.0, 1.0)
        assert to_rgb(mpl.rcParams["savefig.facecolor"]) == (1.0, 1.0, 1.0)
