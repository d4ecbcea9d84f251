import warnings

import numpy as np
from scipy.special import logsumexp, softmax

from prml14._numerics import (
    log_or_minus_inf,
    logsumexp_last,
    normalise_log,
    softplus,
)
from prml14.mixtures.conditional_mixture import affine_features


def test_softplus_matches_logaddexp_without_overflow():
    a = np.array([-1000.0, -40.0, -1.0, 0.0, 1e-12, 1.0, 40.0, 1000.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = softplus(a)
    np.testing.assert_allclose(got, np.logaddexp(0.0, a), rtol=1e-15, atol=0.0)
    assert got[-1] == 1000.0  # no overflow of e^a
    np.testing.assert_allclose(got[1], np.exp(-40.0), rtol=1e-15)  # ln(1 + ε) = ε, not 0


def test_log_or_minus_inf_is_silent_at_zero():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = log_or_minus_inf(np.array([0.0, 1.0, np.e]))
    np.testing.assert_array_equal(got, [-np.inf, 0.0, 1.0])


def test_affine_features_prepends_ones():
    np.testing.assert_array_equal(
        affine_features([[2.0, 3.0], [4.0, 5.0]]), [[1.0, 2.0, 3.0], [1.0, 4.0, 5.0]]
    )


def test_logsumexp_last_matches_scipy_far_out_and_on_minus_inf_rows():
    rng = np.random.default_rng(0)
    a = rng.normal(scale=300.0, size=(4, 5, 3))  # exp overflows / underflows without the shift
    a[0, 0] = -np.inf  # a point that no component can explain
    a[1, 2, 1] = -np.inf  # one component ruled out
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = logsumexp_last(a)
    np.testing.assert_allclose(got, logsumexp(a, axis=-1), rtol=1e-14)
    assert got[0, 0] == -np.inf and got.shape == (4, 5)


def test_normalise_log_gives_the_softmax_and_its_normaliser():
    rng = np.random.default_rng(1)
    a = rng.normal(scale=50.0, size=(6, 4))
    a[2, 3] = -np.inf
    p, log_norm = normalise_log(a)
    np.testing.assert_allclose(p, softmax(a, axis=1), rtol=1e-13, atol=1e-300)
    np.testing.assert_allclose(log_norm, logsumexp(a, axis=1), rtol=1e-14)
    assert p[2, 3] == 0.0
