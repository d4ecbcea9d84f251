import itertools
import warnings

import numpy as np
import pytest
from scipy.stats import cauchy, multivariate_normal, multivariate_t, norm
from sklearn.exceptions import ConvergenceWarning

from prml14 import (
    bma_predictive_density,
    cauchy_log_densities,
    combination_responsibilities,
    component_log_densities,
    fit_combination_weights,
    gaussian_log_densities,
    log_bma_marginal,
    log_joint,
    log_marginal,
    log_model_evidence,
    log_model_posterior,
    mixture_density,
    mixture_log_density,
    mixture_log_likelihood,
    model_posterior_path,
    sample_mixture,
)

WEIGHTS = np.array([0.5, 0.3, 0.2])
MEANS_2D = np.array([[0.0, 0.0], [2.0, 1.0], [-1.5, 2.0]])
COVS_2D = np.array(
    [[[1.0, 0.3], [0.3, 0.5]], [[0.4, 0.0], [0.0, 0.4]], [[0.6, -0.2], [-0.2, 0.8]]]
)
MEANS_1D = np.array([-2.0, 0.5, 3.0])
VARS_1D = np.array([0.5, 1.0, 0.3])


def _points(n=30, seed=0):
    return np.random.default_rng(seed).normal(size=(n, 2)) * 2


def test_gaussian_log_densities_match_scipy():
    X = _points()
    got = gaussian_log_densities(X, MEANS_2D, COVS_2D)
    expected = np.column_stack(
        [multivariate_normal(m, c).logpdf(X) for m, c in zip(MEANS_2D, COVS_2D, strict=True)]
    )
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    x = np.linspace(-3, 3, 11)
    np.testing.assert_allclose(
        gaussian_log_densities(x, MEANS_1D, VARS_1D),
        norm.logpdf(x[:, None], MEANS_1D, np.sqrt(VARS_1D)),
        rtol=1e-12,
    )


def test_cauchy_log_densities_match_scipy():
    x = np.linspace(-50, 50, 21)
    np.testing.assert_allclose(
        cauchy_log_densities(x, MEANS_1D, VARS_1D),
        cauchy.logpdf(x[:, None], MEANS_1D, np.sqrt(VARS_1D)),
        rtol=1e-12,
    )
    X = _points()
    expected = np.column_stack(
        [multivariate_t(m, c, df=1).logpdf(X) for m, c in zip(MEANS_2D, COVS_2D, strict=True)]
    )
    np.testing.assert_allclose(cauchy_log_densities(X, MEANS_2D, COVS_2D), expected, rtol=1e-10)


@pytest.mark.equation("14.2")
@pytest.mark.equation("14.3")
def test_joint_is_prior_times_component_and_sums_to_marginal():
    X = _points()
    log_p = gaussian_log_densities(X, MEANS_2D, COVS_2D)
    joint = log_joint(WEIGHTS, log_p)
    for n, k in itertools.product(range(len(X)), range(3)):
        assert np.exp(joint[n, k]) == pytest.approx(
            WEIGHTS[k] * multivariate_normal(MEANS_2D[k], COVS_2D[k]).pdf(X[n])
        )
    np.testing.assert_allclose(
        np.exp(log_marginal(WEIGHTS, log_p)), np.exp(joint).sum(axis=1), rtol=1e-12
    )


@pytest.mark.equation("14.2")
def test_joint_one_of_k_product_form():
    """p(x, z) = Π_k {π_k p(x|k)}^{z_k}: evaluate the product for each one-hot z."""
    X = _points(5)
    log_p = gaussian_log_densities(X, MEANS_2D, COVS_2D)
    Z = np.eye(3)
    product_form = np.exp(Z @ (np.log(WEIGHTS) + log_p).T).T  # rows: points, columns: z = e_k
    np.testing.assert_allclose(np.exp(log_joint(WEIGHTS, log_p)), product_form, rtol=1e-12)


@pytest.mark.equation("14.4")
def test_mixture_density_integrates_to_one_1d_and_2d():
    x = np.linspace(-12, 14, 20001)
    np.testing.assert_allclose(
        np.trapezoid(mixture_density(x, WEIGHTS, MEANS_1D, VARS_1D), x), 1.0, atol=1e-10
    )
    g = np.linspace(-8, 9, 401)
    xx, yy = np.meshgrid(g, g)
    dens = mixture_density(
        np.column_stack([xx.ravel(), yy.ravel()]), WEIGHTS, MEANS_2D, COVS_2D
    ).reshape(xx.shape)
    assert np.trapezoid(np.trapezoid(dens, g, axis=1), g) == pytest.approx(1.0, abs=1e-6)


@pytest.mark.equation("14.4")
def test_mixture_density_equals_weighted_scipy_sum():
    X = _points()
    expected = sum(
        w * multivariate_normal(m, c).pdf(X)
        for w, m, c in zip(WEIGHTS, MEANS_2D, COVS_2D, strict=True)
    )
    np.testing.assert_allclose(
        mixture_density(X, WEIGHTS, MEANS_2D, COVS_2D), expected, rtol=1e-12
    )
    np.testing.assert_allclose(
        np.exp(mixture_log_density(X, WEIGHTS, MEANS_2D, COVS_2D, "cauchy")),
        sum(
            w * multivariate_t(m, c, df=1).pdf(X)
            for w, m, c in zip(WEIGHTS, MEANS_2D, COVS_2D, strict=True)
        ),
        rtol=1e-10,
    )


@pytest.mark.equation("14.5")
def test_likelihood_equals_sum_over_all_latent_configurations():
    """Σ over all K^N assignments (z_1, ..., z_N) of Π_n p(x_n, z_n) = Π_n Σ_{z_n} p(x_n, z_n)."""
    X = _points(4, seed=2)
    joint = np.exp(log_joint(WEIGHTS, gaussian_log_densities(X, MEANS_2D, COVS_2D)))
    brute = sum(
        np.prod(joint[np.arange(4), list(z)]) for z in itertools.product(range(3), repeat=4)
    )
    ll = mixture_log_likelihood(WEIGHTS, gaussian_log_densities(X, MEANS_2D, COVS_2D))
    assert np.exp(ll) == pytest.approx(brute, rel=1e-12)
    assert log_model_evidence(X, WEIGHTS, MEANS_2D, COVS_2D) == pytest.approx(ll, rel=1e-14)


@pytest.mark.equation("14.5")
def test_log_likelihood_survives_thousands_of_points():
    X, _ = sample_mixture(5000, WEIGHTS, MEANS_2D, COVS_2D, random_state=0)
    direct = np.prod(mixture_density(X, WEIGHTS, MEANS_2D, COVS_2D))
    assert direct == 0.0  # the product underflows ...
    ll = log_model_evidence(X, WEIGHTS, MEANS_2D, COVS_2D)
    assert np.isfinite(ll) and ll < -1e4  # ... its logarithm does not
    np.testing.assert_allclose(
        ll, np.sum(np.log(mixture_density(X, WEIGHTS, MEANS_2D, COVS_2D))), rtol=1e-12
    )
    far = mixture_log_density(np.array([[1e3, -1e3]]), WEIGHTS, MEANS_2D, COVS_2D)
    assert np.isfinite(far).all() and far[0] < -1e5


@pytest.mark.equation("14.6")
def test_bma_marginal_is_sum_over_models_of_products():
    X = _points(6, seed=4)
    models = [
        ("gaussian", MEANS_2D, COVS_2D),
        ("cauchy", MEANS_2D, COVS_2D),
        ("gaussian", MEANS_2D + 1, COVS_2D),
    ]
    prior = np.array([0.2, 0.5, 0.3])
    evid = np.array([log_model_evidence(X, WEIGHTS, m, s, f) for f, m, s in models])
    # Direct: a sum over h of a product over n of each model's density.
    direct = sum(
        p * np.prod(np.exp(mixture_log_density(X, WEIGHTS, m, s, f)))
        for p, (f, m, s) in zip(prior, models, strict=True)
    )
    assert np.exp(log_bma_marginal(evid, prior)) == pytest.approx(direct, rel=1e-12)
    post = np.exp(log_model_posterior(evid, prior))
    assert post.sum() == pytest.approx(1.0)
    expected = [p * np.exp(e) / direct for p, e in zip(prior, evid, strict=True)]
    np.testing.assert_allclose(post, expected, rtol=1e-10)
    np.testing.assert_allclose(
        np.exp(log_model_posterior(evid)), np.exp(evid) / np.exp(evid).sum(), rtol=1e-10
    )


@pytest.mark.equation("14.6")
def test_bma_is_not_model_combination():
    """One model for the whole data set (14.6) is not one model per point (a mixture of models).

    With maximum-likelihood combination weights, ln p(X) of the combination is at least
    max_h ln p(X | h) (the weights may put all mass on one model), which is at least the BMA
    ln p(X) = ln Σ_h p(h) p(X | h) (an average never exceeds its largest term). With fixed weights
    there is no such order.
    """
    X = _points(5, seed=5)
    log_p = np.column_stack(
        [mixture_log_density(X, WEIGHTS, MEANS_2D, COVS_2D, f) for f in ("gaussian", "cauchy")]
    )
    bma = log_bma_marginal(log_p.sum(axis=0))
    best_single = log_p.sum(axis=0).max()
    weights, _ = fit_combination_weights(log_p)
    combination = mixture_log_likelihood(weights, log_p)
    assert (
        best_single <= combination + 1e-6 and bma <= best_single
    )  # EM stops within tol of the maximum
    assert combination > bma + 0.1  # the two really differ on these data
    # Fixed 1/2-1/2 weights when model 1 explains every point far better: the combination pays
    # ln 2 per point, BMA only once, so here BMA gives the data the higher probability.
    dominated = np.column_stack([np.zeros(5), np.full(5, -10.0)])
    assert (
        mixture_log_likelihood([0.5, 0.5], dominated)
        < log_bma_marginal(dominated.sum(axis=0)) - 2.0
    )


@pytest.mark.equation("14.6")
def test_posterior_path_matches_recomputation_and_concentrates():
    X, _ = sample_mixture(3000, [0.6, 0.4], [-1.0, 2.0], [0.5, 0.8], "gaussian", random_state=1)
    log_p = np.column_stack(
        [
            mixture_log_density(X, [0.6, 0.4], [-1.0, 2.0], [0.5, 0.8], f)
            for f in ("gaussian", "cauchy")
        ]
    )
    path = model_posterior_path(log_p, prior=[0.1, 0.9])
    for n in (1, 10, 500):
        np.testing.assert_allclose(
            path[n - 1], log_model_posterior(log_p[:n].sum(axis=0), [0.1, 0.9]), atol=1e-10
        )
    assert np.all(np.isfinite(path))
    assert np.exp(path[-1, 0]) > 1 - 1e-12  # the generating (Gaussian) model takes all the mass
    # Per-point responsibilities under model combination do not concentrate.
    resp = combination_responsibilities(log_p, [0.5, 0.5])
    np.testing.assert_allclose(resp.sum(axis=1), 1.0)
    assert 0.05 < resp[:, 1].mean() < 0.95


@pytest.mark.equation("14.5")
def test_combination_weights_recover_a_mixed_data_set_and_em_never_decreases():
    Xg, _ = sample_mixture(1500, [1.0], [0.0], [1.0], "gaussian", random_state=2)
    Xc, _ = sample_mixture(1500, [1.0], [0.0], [1.0], "cauchy", random_state=3)
    X = np.vstack([Xg, Xc])
    log_p = np.column_stack(
        [component_log_densities(X, [0.0], [1.0], f)[:, 0] for f in ("gaussian", "cauchy")]
    )
    weights, trace = fit_combination_weights(log_p)
    assert np.all(np.diff(trace) >= -1e-9)
    assert weights[1] == pytest.approx(0.5, abs=0.08)
    assert trace[-1] == pytest.approx(mixture_log_likelihood(weights, log_p), abs=1e-3)
    # BMA on the same data still puts (almost) all its mass on one model.
    assert np.exp(log_model_posterior(log_p.sum(axis=0))).max() > 1 - 1e-6


def test_fit_combination_weights_warns_without_convergence():
    log_p = np.log(np.random.default_rng(0).uniform(0.1, 1, size=(50, 3)))
    with pytest.warns(ConvergenceWarning, match="did not converge") as record:
        fit_combination_weights(log_p, max_iter=2, tol=0.0)
    assert [w.filename for w in record] == [__file__]  # the caller's line, not the package


@pytest.mark.equation("14.5")
def test_combination_weights_are_the_em_fixed_point_and_the_trace_ends_at_them():
    # An independent EM written out here: E-step by Bayes' rule, M-step the mean responsibility.
    log_p = np.log(np.random.default_rng(1).uniform(0.05, 1, size=(40, 3)))
    with pytest.warns(ConvergenceWarning):
        weights, trace = fit_combination_weights(log_p, max_iter=7, tol=0.0, init=[0.5, 0.3, 0.2])
    w, expected = np.array([0.5, 0.3, 0.2]), []
    for _ in range(8):
        joint = w * np.exp(log_p)
        expected.append(np.log(joint.sum(axis=1)).sum())
        if len(expected) == 8:
            break
        w = (joint / joint.sum(axis=1, keepdims=True)).mean(axis=0)
    np.testing.assert_allclose(weights, w, rtol=1e-12)
    np.testing.assert_allclose(trace, expected, rtol=1e-12)
    assert trace[-1] == pytest.approx(mixture_log_likelihood(weights, log_p), rel=1e-12)
    with pytest.raises(ValueError, match="max_iter == 0, must be >= 1"):
        fit_combination_weights(log_p, max_iter=0)


def test_bma_predictive_density_is_posterior_weighted_average():
    dens = np.array([[0.2, 0.4], [1.0, 0.0]])
    np.testing.assert_allclose(bma_predictive_density(dens, np.log([0.25, 0.75])), [0.35, 0.25])


def test_sample_mixture_moments_and_labels():
    X, z = sample_mixture(
        40000, [0.3, 0.7], [[-2.0, 0.0], [3.0, 1.0]], COVS_2D[:2], random_state=0
    )
    assert X.shape == (40000, 2)
    assert np.mean(z == 1) == pytest.approx(0.7, abs=0.01)
    np.testing.assert_allclose(X[z == 1].mean(axis=0), [3.0, 1.0], atol=0.03)
    np.testing.assert_allclose(np.cov(X[z == 0].T), COVS_2D[0], atol=0.05)
    Xc, _ = sample_mixture(40000, [1.0], [0.0], [4.0], "cauchy", random_state=0)
    assert np.median(np.abs(Xc)) == pytest.approx(2.0, rel=0.05)  # median |x| = scale γ = 2
    np.testing.assert_array_equal(
        sample_mixture(5, [1.0], [0.0], [1.0], random_state=3)[0],
        sample_mixture(5, [1.0], [0.0], [1.0], random_state=3)[0],
    )


def test_bad_input():
    X = _points(5)
    log_p = gaussian_log_densities(X, MEANS_2D, COVS_2D)
    with pytest.raises(ValueError, match="weights must be non-negative and sum to one"):
        log_joint([0.5, 0.6, 0.1], log_p)
    with pytest.raises(
        ValueError, match="log_component_densities must have the components on its last axis"
    ):
        log_joint([0.5, 0.5], log_p)
    with pytest.raises(ValueError, match="Input X contains NaN"):
        gaussian_log_densities(np.array([[np.nan, 0.0]]), MEANS_2D, COVS_2D)
    with pytest.raises(ValueError, match=r"means must have shape \(n_components, 2\)"):
        gaussian_log_densities(X, MEANS_1D, VARS_1D)
    with pytest.raises(ValueError, match="covariances must be symmetric positive definite"):
        gaussian_log_densities(X, MEANS_2D, -COVS_2D)
    with pytest.raises(ValueError, match="scales must be positive"):
        cauchy_log_densities(X[:, 0], MEANS_1D, -VARS_1D)
    with pytest.raises(ValueError, match="family must be one of"):
        mixture_log_density(X, WEIGHTS, MEANS_2D, COVS_2D, "laplace")
    with pytest.raises(ValueError, match="prior must be non-negative and sum to one"):
        log_model_posterior([1.0, 2.0], prior=[0.9, 0.9])
    with pytest.raises(ValueError, match="prior must have one entry per component"):
        log_bma_marginal([1.0, 2.0], prior=[1.0])
    with pytest.raises(ValueError, match="log_evidences must not contain NaN"):
        log_model_posterior([np.nan, 0.0])
    with pytest.raises(ValueError, match="n_samples == 0, must be >= 1"):
        sample_mixture(0, WEIGHTS, MEANS_2D, COVS_2D)
    with pytest.raises(ValueError, match="log_point_densities must have shape"):
        model_posterior_path(np.zeros(4))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # ln 0 for a zero weight is fine: that component simply never contributes.
        assert np.all(np.isfinite(log_marginal([1.0, 0.0, 0.0], log_p)))


def test_bad_parameters_are_rejected_not_propagated():
    """Asymmetric or non-finite covariances and NaN means used to give NaN or wrong densities."""
    X = _points(5)
    asymmetric = np.array([[[1.0, 5.0], [0.0, 1.0]]])  # Cholesky reads only the lower triangle
    with pytest.raises(ValueError, match="covariances must be symmetric positive definite"):
        gaussian_log_densities(X, [[0.0, 0.0]], asymmetric)
    with pytest.raises(ValueError, match="scales must be symmetric positive definite"):
        cauchy_log_densities(X, [[0.0, 0.0]], asymmetric)
    with pytest.raises(ValueError, match="Input covariances contains (NaN|infinity)"):
        gaussian_log_densities(X, [[0.0, 0.0]], np.array([[[np.nan, 0.0], [0.0, 1.0]]]))
    with pytest.raises(ValueError, match="Input covariances contains (NaN|infinity)"):
        gaussian_log_densities(X, [[0.0, 0.0]], np.array([[[np.inf, 0.0], [0.0, 1.0]]]))
    with pytest.raises(ValueError, match="Input means contains (NaN|infinity)"):
        gaussian_log_densities(X, [[np.nan, 0.0]], [1.0])
    # A mismatch between weights and means names the means, not an internal array.
    with pytest.raises(ValueError, match=r"means must have one row per component \(2 weights\)"):
        mixture_log_density(X, [0.5, 0.5], [[0.0, 0.0]], [1.0])
    with pytest.raises(ValueError, match=r"means must have one row per component \(3 weights\)"):
        log_model_evidence(X, WEIGHTS, MEANS_2D[:2], COVS_2D[:2])


@pytest.mark.equation("14.6")
def test_posterior_undefined_when_every_model_gives_zero_probability():
    assert log_bma_marginal([-np.inf, -np.inf]) == -np.inf  # p(X) = 0 is a valid answer ...
    with pytest.raises(ValueError, match="zero for every model"):  # ... p(h | X) = 0/0 is not
        log_model_posterior([-np.inf, -np.inf])
    with pytest.raises(ValueError, match="zero for every model"):
        log_model_posterior([-np.inf, 0.0], prior=[1.0, 0.0])
    # One model ruled out is fine: the other takes all the mass.
    np.testing.assert_array_equal(np.exp(log_model_posterior([-np.inf, -3.0])), [0.0, 1.0])


def test_point_density_inputs_are_checked_under_their_own_name():
    with pytest.raises(ValueError, match="log_point_densities must not contain NaN"):
        fit_combination_weights(np.array([[0.0, np.nan]]))
    with pytest.raises(ValueError, match="log_point_densities must not contain NaN"):
        model_posterior_path(np.array([[0.0, np.nan]]))
    with pytest.raises(ValueError, match="log_point_densities must not contain NaN"):
        combination_responsibilities(np.array([[0.0, np.nan]]), [0.5, 0.5])
    with pytest.raises(ValueError, match="zero density under every model"):
        fit_combination_weights(np.array([[0.0, -1.0], [-np.inf, -np.inf]]))


def test_errors_name_the_arguments_of_the_function_called():
    """component_log_densities and cauchy_log_densities used to blame `covariances` / `means`,
    arguments they do not have; huge inputs overflowed in the squared distances."""
    X = _points(5)
    with pytest.raises(ValueError, match="scales must have one entry per component"):
        component_log_densities(X, MEANS_2D, VARS_1D[:2])
    with pytest.raises(ValueError, match=r"locations must have shape \(n_components, 2\)"):
        cauchy_log_densities(X, MEANS_1D, VARS_1D)
    with pytest.raises(ValueError, match="X has entries of magnitude up to .* rescale X"):
        mixture_log_density(X * 1e300, WEIGHTS, MEANS_2D, COVS_2D)
    with pytest.raises(ValueError, match="means has entries of magnitude"):
        log_model_evidence(X, WEIGHTS, MEANS_2D * 1e200, COVS_2D)
    with pytest.raises(ValueError, match="random_state: Seed must be between"):
        sample_mixture(3, WEIGHTS, MEANS_2D, COVS_2D, random_state=-1)
    with pytest.raises(ValueError, match="means: could not convert string"):
        sample_mixture(3, WEIGHTS, np.full((3, 2), "a", dtype=object), COVS_2D)
    log_p = gaussian_log_densities(X, MEANS_2D, COVS_2D)
    with pytest.raises(ValueError, match="log_point_densities must have the components"):
        combination_responsibilities(log_p, [0.5, 0.5])
