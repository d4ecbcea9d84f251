import warnings

import numpy as np

from prml14._numerics import affine_features, log_or_minus_inf, softplus


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
    np.testing.assert_array_equal(affine_features([[2.0, 3.0], [4.0, 5.0]]), [[1.0, 2.0, 3.0], [1.0, 4.0, 5.0]])
