import base64
import io
import json
from html.parser import HTMLParser

import matplotlib as mpl
import numpy as np
import pytest
from matplotlib.colors import to_rgb
from PIL import Image

from prml14.plotting import (
    COMPONENT_COLORS,
    OKABE_ITO,
    ROLE_COLORS,
    class_colors,
    decision_grid,
    driven_figure,
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


# --- driven figures ------------------------------------------------------------------------


def _figure_of_states(n_states=5, **kwargs):
    """A line-and-scatter figure whose line moves with the state, driven over n_states."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3), layout="constrained")
    rng = np.random.default_rng(0)
    ax.scatter(rng.uniform(0, 1, 100), rng.normal(size=100), s=6)
    (line,) = ax.plot([], [], lw=2)
    x = np.linspace(0, 1, 50)
    drawn = []

    def draw(state):
        drawn.append(state)
        line.set_data(x, np.sin(2 * np.pi * x + state))
        ax.set_title(f"phase {state}")

    states = list(range(n_states))
    figure = driven_figure(fig, draw, states, [f"s = {s}" for s in states], name="phase", **kwargs)
    return figure, drawn, fig


class _Parsed(HTMLParser):
    """The elements of a driven figure's HTML: tag → list of attribute dicts, script texts."""

    def __init__(self, text):
        super().__init__()
        self.elements, self.scripts, self.output_text, self._in = {}, [], [], None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.elements.setdefault(tag, []).append(dict(attrs))
        self._in = tag

    def handle_endtag(self, tag):
        self._in = None

    def handle_data(self, data):
        if self._in == "script":
            self.scripts.append(data)
        elif self._in == "output":
            self.output_text.append(data)


def test_driven_figure_draws_one_distinct_frame_per_state_and_closes_the_figure():
    import matplotlib.pyplot as plt

    figure, drawn, fig = _figure_of_states(5)
    assert len(figure) == 5 and figure.labels == [f"s = {s}" for s in range(5)]
    assert set(drawn) == set(range(5))  # every state drawn (the first one also for layout)
    assert len(set(figure.frames)) == 5  # each state its own picture
    assert not plt.fignum_exists(fig.number)
    assert figure.start == 4  # default: the last state


def test_driven_figure_frames_are_compact_palette_pngs_of_one_size():
    figure, _, _ = _figure_of_states(4, colors=32)
    sizes = set()
    for frame in figure.frames:
        with Image.open(io.BytesIO(frame)) as image:
            assert image.format == "PNG" and image.mode == "P"
            assert len(image.getcolors(256)) <= 32
            sizes.add(image.size)
        # a 6 × 3 inch line-and-scatter frame at 100 dpi: a few tens of kB, not hundreds
        assert len(frame) < 60_000
    assert sizes == {(600, 300)}  # the layout is frozen: every frame the figure's size
    full, _, _ = _figure_of_states(2, colors=None)
    assert sum(map(len, full.frames)) > sum(map(len, figure.frames[:2]))


def test_driven_figure_html_is_a_slider_over_the_frames():
    figure, _, _ = _figure_of_states(5, start=1)
    page = _Parsed(figure._repr_html_())
    (card,) = [d for d in page.elements["div"] if d.get("class") == "prml14-driven"]
    assert card["id"] == figure.id
    (img,) = page.elements["img"]
    (slider,) = page.elements["input"]
    uris = figure.frame_uris()
    assert img["src"] == uris[1] and "s = 1" in img["alt"]
    assert slider["type"] == "range" and slider["aria-label"] == "phase"
    assert (slider["min"], slider["max"], slider["step"], slider["value"]) == ("0", "4", "1", "1")
    assert slider["aria-valuetext"] == "s = 1" and page.output_text == ["s = 1"]
    data_script, code = page.scripts
    data = json.loads(data_script)
    assert data["frames"] == uris and data["labels"] == figure.labels
    assert f'getElementById("{figure.id}")' in code and 'addEventListener("input"' in code
    # no network and no kernel: nothing is loaded from anywhere else
    assert "http" not in figure._repr_html_().replace("data:image/png", "")


def test_driven_figure_html_stays_within_the_size_budget():
    figure, _, _ = _figure_of_states(30)
    # the book's budget is 2 MB for a driven figure; 30 frames of this figure need far less
    assert len(figure._repr_html_()) < 1_500_000


def test_driven_figure_escapes_labels_and_gets_a_stable_id():
    import matplotlib.pyplot as plt

    def make():
        fig, ax = plt.subplots(figsize=(2, 2))
        return driven_figure(
            fig,
            lambda s: ax.set_title(s),
            ["a", "b"],
            ["</script><b>x", 'λ = "1"'],
            name="two states",
            start=0,
        )

    first, second = make(), make()
    text = first._repr_html_()
    assert text.count("</script>") == 2  # the label cannot close the data script
    parsed = _Parsed(text)
    assert "b" not in parsed.elements  # ... nor become markup: it is text everywhere
    assert parsed.output_text == ["</script><b>x"]
    assert json.loads(parsed.scripts[0])["labels"] == ["</script><b>x", 'λ = "1"']
    assert first.id == second.id and first.id.startswith("prml14-driven-two-states-")
    assert text == second._repr_html_()  # same states, same output: no timestamps


def test_driven_figure_shows_a_noted_still_where_no_slider_can_be():
    IPython = pytest.importorskip("IPython")
    figure, _, _ = _figure_of_states(3, start=0)
    bundle, _ = IPython.core.formatters.DisplayFormatter().format(figure)
    assert {"text/html", "image/png"} <= set(
        bundle
    )  # HTML for Jupyter and the book, PNG for the PDF
    still = (
        base64.b64decode(bundle["image/png"])
        if isinstance(bundle["image/png"], str)
        else bundle["image/png"]
    )
    assert still == figure.still
    with Image.open(io.BytesIO(still)) as image, Image.open(io.BytesIO(figure.frames[0])) as frame:
        # the note sits below the frame: the still is taller
        assert image.size[1] > frame.size[1]


@pytest.mark.parametrize(
    ("kwargs", "error", "argument"),
    [
        ({"states": []}, ValueError, "states"),
        ({"labels": ["only one"]}, ValueError, "labels"),
        ({"start": 3}, ValueError, "start"),
        ({"start": -4}, ValueError, "start"),
        ({"colors": 1}, ValueError, "colors"),
        ({"colors": 300}, ValueError, "colors"),
        ({"draw": "not a function"}, TypeError, "draw"),
    ],
)
def test_driven_figure_refuses_bad_arguments_naming_them(kwargs, error, argument):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(2, 2))
    arguments = {
        "draw": lambda s: ax.set_title(s),
        "states": ["a", "b", "c"],
        "labels": ["a", "b", "c"],
        "name": "state",
    }
    arguments.update(kwargs)
    if "states" in kwargs:
        arguments["labels"] = []
    with pytest.raises(error, match=argument):
        driven_figure(fig, **arguments)
    plt.close(fig)
