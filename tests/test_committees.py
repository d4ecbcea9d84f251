"""Committees (14.7)-(14.14): the core functions against loops, closed forms and invariants.

Member predictions are samples first, shape (n_samples, n_members)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from prml14 import (
    committee_errors,
    committee_prediction,
    error_moments,
    make_uncorrelated_errors,
    member_errors,
    member_expected_errors,
    uncorrelated_committee_error,
)

N_POINTS, N_MEMBERS = 40, 7


@pytest.fixture
def members():
    rng = np.random.default_rng(0)
    h = np.sin(np.linspace(0, 3, 40))
    predictions = h[:, None] + rng.normal(0.1, 0.5, size=(40, 7))  # (n_samples, n_members)
    return predictions, h


# ----------------------------------------------------------------------------- core functions
@pytest.mark.equation("14.7")
def test_committee_prediction_is_the_hand_average(members):
    predictions, _ = members
    hand = [sum(predictions[n, m] for m in range(7)) / 7 for n in range(40)]
    np.testing.assert_allclose(committee_prediction(predictions), hand, rtol=1e-12)
    alphas = np.arange(1, 8) / 28
    hand = [sum(alphas[m] * predictions[n, m] for m in range(7)) for n in range(40)]
    np.testing.assert_allclose(committee_prediction(predictions, alphas), hand, rtol=1e-12)


@pytest.mark.equation("14.8")
@pytest.mark.equation("14.9")
def test_member_errors_and_expected_errors_by_loops(members):
    predictions, h = members
    eps = member_errors(predictions, h)
    assert eps.shape == (40, 7)
    for m in range(7):
        for n in range(40):
            assert eps[n, m] == pytest.approx(predictions[n, m] - h[n])
    expected = [sum((predictions[n, m] - h[n]) ** 2 for n in range(40)) / 40 for m in range(7)]
    np.testing.assert_allclose(member_expected_errors(predictions, h), expected, rtol=1e-12)


@pytest.mark.equation("14.10")
@pytest.mark.equation("14.11")
def test_committee_errors_by_loops(members):
    predictions, h = members
    N, M = predictions.shape
    e_av = sum(sum((predictions[n, m] - h[n]) ** 2 for n in range(N)) / N for m in range(M)) / M
    e_com = sum((sum(predictions[n, m] for m in range(M)) / M - h[n]) ** 2 for n in range(N)) / N
    errors = committee_errors(predictions, h)
    assert errors.E_AV == pytest.approx(e_av, rel=1e-12)
    assert errors.E_COM == pytest.approx(e_com, rel=1e-12)
    E_AV, E_COM = errors  # a named tuple unpacks
    assert E_COM < E_AV


@pytest.mark.equation("14.12")
@pytest.mark.equation("14.13")
def test_error_moments_decompose_both_errors(members):
    predictions, h = members
    mean, C = error_moments(predictions, h)
    M = predictions.shape[1]
    hand = [
        [np.mean((predictions[:, m] - h) * (predictions[:, k] - h)) for k in range(M)]
        for m in range(M)
    ]
    np.testing.assert_allclose(mean, [np.mean(predictions[:, m] - h) for m in range(M)])
    np.testing.assert_allclose(C, hand, rtol=1e-12)
    E_AV, E_COM = committee_errors(predictions, h)
    assert np.trace(C) / M == pytest.approx(E_AV, rel=1e-12)
    assert C.sum() / M**2 == pytest.approx(E_COM, rel=1e-12)


@pytest.mark.equation("14.12")
@pytest.mark.equation("14.13")
@pytest.mark.equation("14.14")
@pytest.mark.parametrize("M", [1, 2, 5, 20])
def test_uncorrelated_zero_mean_errors_give_one_over_m(M):
    h = np.cos(np.linspace(0, 5, 200))
    eps = make_uncorrelated_errors(200, M, scales=np.linspace(0.5, 2.0, M), random_state=M)
    assert eps.shape == (200, M)
    np.testing.assert_allclose(np.sqrt(np.mean(eps**2, axis=0)), np.linspace(0.5, 2.0, M))
    mean, C = error_moments(h[:, None] + eps, h)
    np.testing.assert_allclose(mean, 0.0, atol=1e-12)  # (14.12)
    np.testing.assert_allclose(C - np.diag(np.diag(C)), 0.0, atol=1e-12)  # (14.13)
    E_AV, E_COM = committee_errors(h[:, None] + eps, h)
    assert E_COM == pytest.approx(uncorrelated_committee_error(E_AV, M), rel=1e-10)  # (14.14)


@pytest.mark.equation("14.14")
def test_one_over_m_fails_for_correlated_errors():
    h = np.zeros(100)
    common = np.random.default_rng(1).normal(size=100)
    E_AV, E_COM = committee_errors(np.tile(common[:, None], (1, 10)), h)
    assert E_COM == pytest.approx(E_AV)  # identical members: no reduction at all
    assert E_COM > 5 * uncorrelated_committee_error(E_AV, 10)


@pytest.mark.equation("14.10")
@pytest.mark.equation("14.11")
@settings(max_examples=200, deadline=None)
@given(
    arrays(
        np.float64, st.tuples(st.integers(1, 30), st.integers(1, 8)), elements=st.floats(-1e3, 1e3)
    ),
    st.floats(-1e3, 1e3),
)
def test_committee_never_worse_than_average_member(predictions, shift):
    h = predictions[:, 0] * 0.5 + shift
    E_AV, E_COM = committee_errors(predictions, h)
    assert E_COM <= E_AV * (1 + 1e-12) + 1e-12


def test_committee_equals_average_member_when_members_agree():
    predictions = np.tile(np.arange(5.0)[:, None], (1, 4))  # 5 points, 4 identical members
    E_AV, E_COM = committee_errors(predictions, np.zeros(5))
    assert E_COM == pytest.approx(E_AV, rel=1e-14)


def test_core_bad_input():
    with pytest.raises(ValueError, match=r"predictions must have shape \(n_samples, n_members\)"):
        committee_errors(np.zeros(5), np.zeros(5))
    with pytest.raises(ValueError, match=r"h must have shape \(n_samples,\) = \(5,\)"):
        committee_errors(np.zeros((5, 2)), np.zeros(4))
    with pytest.raises(ValueError, match="Input predictions contains NaN"):
        committee_errors(np.array([[np.nan], [1.0]]), np.zeros(2))
    with pytest.raises(ValueError, match="Input h contains infinity"):
        member_errors(np.zeros((2, 3)), [0.0, np.inf])
    with pytest.raises(ValueError, match=r"alphas must have shape \(n_members,\) = \(4,\)"):
        committee_prediction(np.zeros((3, 4)), alphas=[1.0, 0.0])
    with pytest.raises(ValueError, match="n_members == 0, must be >= 1"):
        uncorrelated_committee_error(1.0, 0)
    with pytest.raises(ValueError, match="n_members == 5, must be <= 4"):
        make_uncorrelated_errors(5, 5)
    with pytest.raises(ValueError, match="scales must have shape"):
        make_uncorrelated_errors(5, 2, scales=[1.0])


def test_committee_prediction_rejects_non_finite_alphas():
    with pytest.raises(ValueError, match="Input alphas contains NaN"):
        committee_prediction(np.ones((3, 2)), [np.nan, 1.0])


def test_squared_errors_refuse_magnitudes_that_overflow():
    Y, h = np.ones((4, 2)), np.zeros(4)
    for f in (member_expected_errors, committee_errors, error_moments):
        with pytest.raises(ValueError, match="rescale predictions"):
            f(Y * 1e300, h)
        with pytest.raises(ValueError, match="rescale h"):
            f(Y, h + 1e300)
    with pytest.raises(ValueError, match="random_state"):
        make_uncorrelated_errors(5, 2, random_state=-1)
