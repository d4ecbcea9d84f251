"""The seeded generators of prml14.datasets: shapes, determinism, documented ranges, bad input."""

import inspect

import numpy as np
import pytest

from prml14 import datasets

GENERATORS = [
    getattr(datasets, name) for name in sorted(dir(datasets)) if name.startswith("make_")
]


@pytest.mark.parametrize("make", GENERATORS, ids=lambda f: f.__name__)
def test_generators_are_seeded_and_sized(make):
    first, again, other = (
        make(n_samples=50, random_state=0),
        make(n_samples=50, random_state=0),
        make(n_samples=50, random_state=1),
    )
    assert first[0].shape[0] == 50 and all(len(a) == 50 for a in first)
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(first[0], other[0])


@pytest.mark.parametrize("make", GENERATORS, ids=lambda f: f.__name__)
def test_generators_name_a_bad_argument(make):
    with pytest.raises(ValueError, match="'n_samples' parameter"):
        make(n_samples=0)
    if "noise" in inspect.signature(make).parameters:
        with pytest.raises(ValueError, match="'noise' parameter"):
            make(noise=-0.1)


def test_documented_labels_and_regions():
    _, t = datasets.make_wavy_classes(200, random_state=0)
    assert set(np.unique(t)) == {-1, 1}
    _, t, z = datasets.make_mixture_of_logistic_regressions(200, random_state=0)
    assert set(np.unique(t)) == {0, 1} and set(np.unique(z)) == {0, 1}
    X, t, region = datasets.make_five_regions(2000, noise=0.0, random_state=0)
    np.testing.assert_array_equal(t, np.array([0.0, 2.0, 3.0, 1.0, 4.0])[region])
    assert np.all(X[region == 0] <= [0.45, 0.6]) and np.all(X[region == 4] > [0.45, 0.35])
    X, t = datasets.make_xor_regression(100, noise=0.0, random_state=0)
    np.testing.assert_array_equal(t, np.where((X[:, 0] > 0.5) == (X[:, 1] > 0.5), 1.0, -1.0))
    X, t, z = datasets.make_mixture_of_linear_regressions(100, precision=1e12, random_state=0)
    np.testing.assert_allclose(t, np.where(z == 0, X[:, 0], -X[:, 0]), atol=1e-5)
    with pytest.raises(ValueError, match="'precision' parameter"):
        datasets.make_mixture_of_linear_regressions(precision=0.0)


def test_every_generator_is_listed_in_all():
    assert sorted(datasets.__all__) == sorted(f.__name__ for f in GENERATORS)
