"""Mixtures of logistic regressions fitted by EM, equations (14.45)-(14.52) (Section 14.5.2).

The model is p(t | φ, θ) = Σ_k π_k y_k^t (1 − y_k)^{1 − t} with y_k = σ(w_kᵀφ). EM alternates
the responsibilities (14.48) (:func:`responsibilities_logistic`, the E-step) with
:func:`m_step_logistic`: π_k (14.50) and, for each component, a weighted IRLS/Newton fit with
gradient (14.51) and negative Hessian (14.52) (:func:`prml14.irls.weighted_logistic_irls`),
warm-started at the previous weights.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted, validate_data

from .._em import warn_at_caller
from .._equations import implements
from .._numerics import DEAD_FRACTION, expit, log_or_minus_inf, normalise_log, softplus
from .._validation import binary_targets, check_simplex, fitted_binary_targets
from ..irls import weighted_logistic_irls
from ._base import (
    MixtureEM,
    check_coef,
    check_data,
    check_responsibilities,
    check_weights,
    log_pi,
    weigh,
    weighted_sum,
)

__all__ = [
    "logistic_component_log_probs",
    "mixture_of_logistic_regressions_proba",
    "mixture_of_logistic_regressions_log_likelihood",
    "complete_data_log_likelihood_logistic",
    "responsibilities_logistic",
    "expected_complete_data_log_likelihood_logistic",
    "m_step_logistic",
    "MixtureOfLogisticRegressions",
]


def _log_probs(Phi, t, W):
    a = Phi @ W.T
    return t[:, None] * a - softplus(a)  # t ln σ(a) + (1 − t) ln σ(−a) = t a − ln(1 + e^a)


def _log_joint(Phi, t, pi, W):
    Phi, t = check_data(Phi, t)
    W = check_coef(W, Phi.shape[1])
    return log_pi(pi, W.shape[0]) + _log_probs(Phi, t, W)


def logistic_component_log_probs(Phi, t, W):
    """ln{y_nk^{t_n} (1 − y_nk)^{1 − t_n}} with y_nk = σ(w_kᵀφ_n), stably (log σ, never ln 0).

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ.
    t : array-like of shape (n_samples,)
        Targets in {0, 1}.
    W : array-like of shape (n_components, n_basis)
        Component weights, one per row.

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        The log probabilities.
    """
    Phi, t = check_data(Phi, t)
    return _log_probs(Phi, t, check_coef(W, Phi.shape[1]))


@implements("14.45")
def mixture_of_logistic_regressions_proba(Phi, pi, W):
    """p(t = 1 | φ_n, θ) = Σ_k π_k y_nk with y_nk = σ(w_kᵀφ_n), equation (14.45) at t = 1.

    (At t = 0 the mixture gives Σ_k π_k (1 − y_nk) = 1 − this value.)

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ.
    pi : array-like of shape (n_components,)
        Mixing coefficients π_k.
    W : array-like of shape (n_components, n_basis)
        Component weights, one per row.

    Returns
    -------
    ndarray of shape (n_samples,)
        The probabilities of class t = 1.
    """
    Phi, W = np.asarray(Phi, dtype=float), np.asarray(W, dtype=float)
    if Phi.ndim != 2 or W.ndim != 2 or W.shape[1] != Phi.shape[1]:
        raise ValueError(
            "Phi (n_samples, n_basis) and W (n_components, n_basis) must share n_basis, "
            f"got {Phi.shape} and {W.shape}"
        )
    return expit(Phi @ W.T) @ check_simplex(pi, W.shape[0], name="pi")


@implements("14.46")
def mixture_of_logistic_regressions_log_likelihood(Phi, t, pi, W, *, sample_weight=None):
    """ln p(t | θ) = Σ_n s_n ln Σ_k π_k y_nk^{t_n} (1 − y_nk)^{1 − t_n}, the log of (14.46).

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ.
    t : array-like of shape (n_samples,)
        The targets in {0, 1}.
    pi : array-like of shape (n_components,)
        Mixing coefficients π_k.
    W : array-like of shape (n_components, n_basis)
        Component weights w_k, one per row.
    sample_weight : array-like of shape (n_samples,), default=None
        Weights s_n of the points' terms (all ones if None: the plain log of (14.46)).

    Returns
    -------
    float
        The (weighted) log-likelihood.
    """
    _, log_p = normalise_log(_log_joint(Phi, t, pi, W))
    return weighted_sum(log_p, check_weights(sample_weight, len(log_p)))


@implements("14.47")
def complete_data_log_likelihood_logistic(Phi, t, Z, pi, W):
    """ln p(t, Z | θ) = Σ_n Σ_k z_nk ln{π_k y_nk^{t_n} (1 − y_nk)^{1 − t_n}}, the log of (14.47).

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ.
    t : array-like of shape (n_samples,)
        The targets in {0, 1}.
    Z : array-like of shape (n_samples, n_components)
        1-of-K indicators z_nk (soft values give the corresponding weighted sum).
    pi : array-like of shape (n_components,)
        Mixing coefficients π_k.
    W : array-like of shape (n_components, n_basis)
        Component weights w_k, one per row.

    Returns
    -------
    float
        Terms with z_nk = 0 contribute 0 even where π_k = 0.
    """
    Z = np.asarray(Z, dtype=float)
    log_joint = _log_joint(Phi, t, pi, W)
    return float(np.sum(np.where(Z > 0, Z * log_joint, 0.0)))


@implements("14.48")
def responsibilities_logistic(Phi, t, pi, W, *, sample_weight=None, return_log_likelihood=False):
    """γ_nk = π_k y_nk^{t_n}(1 − y_nk)^{1−t_n} / Σ_j π_j y_nj^{t_n}(1 − y_nj)^{1−t_n}, (14.48).

    The E-step, γ_nk = E[z_nk | t_n, θ^old], computed in log space with a log-sum-exp over the
    components.

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ.
    t : array-like of shape (n_samples,)
        The targets in {0, 1}.
    pi : array-like of shape (n_components,)
        Mixing coefficients π_k.
    W : array-like of shape (n_components, n_basis)
        Component weights w_k, one per row.
    sample_weight : array-like of shape (n_samples,), default=None
        Weights of the points' terms in the returned log-likelihood (γ does not depend on
        them).
    return_log_likelihood : bool, default=False
        Also return the log of (14.46) at θ^old.

    Returns
    -------
    gamma : ndarray of shape (n_samples, n_components)
        The responsibilities; each row sums to one.
    log_likelihood : float
        Only if ``return_log_likelihood``.
    """
    gamma, log_p = normalise_log(_log_joint(Phi, t, pi, W))
    if not return_log_likelihood:
        return gamma
    return gamma, weighted_sum(log_p, check_weights(sample_weight, len(log_p)))


@implements("14.49")
def expected_complete_data_log_likelihood_logistic(Phi, t, gamma, pi, W):
    """Q(θ, θ^old) = Σ_n Σ_k γ_nk {ln π_k + t_n ln y_nk + (1 − t_n) ln(1 − y_nk)}, (14.49).

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ.
    t : array-like of shape (n_samples,)
        The targets in {0, 1}.
    gamma : array-like of shape (n_samples, n_components)
        The responsibilities at θ^old (times the sample weights, for a weighted Q).
    pi : array-like of shape (n_components,)
        Mixing coefficients π_k.
    W : array-like of shape (n_components, n_basis)
        Component weights w_k, one per row.

    Returns
    -------
    float
        Q.
    """
    return complete_data_log_likelihood_logistic(Phi, t, gamma, pi, W)


@implements("14.50", "14.51", "14.52")
def m_step_logistic(
    Phi,
    t,
    gamma,
    W_old=None,
    *,
    sample_weight=None,
    l2=0.0,
    max_newton_steps=50,
    return_n_iter=False,
):
    """The M-step of a mixture of logistic regressions: π (14.50), then IRLS for each w_k.

    π_k = Σ_n s_n γ_nk / Σ_n s_n (14.50); then each w_k maximises
    Σ_n s_n γ_nk {t_n ln y_nk + (1 − t_n) ln(1 − y_nk)} − (l2/2)‖w_k‖² by Newton/IRLS steps
    with gradient (14.51) and negative Hessian (14.52) (:func:`prml14.irls.weighted_logistic_irls`,
    warm-started at ``W_old``). The steps never decrease this objective, so even an IRLS fit
    stopped after ``max_newton_steps`` is a generalised M-step: EM's objective (the
    log-likelihood minus the fixed penalty) never decreases. A component with
    Σ_n s_n γ_nk <= 1e-10 Σ_n s_n keeps ``W_old[k]`` (zeros if None).

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ.
    t : array-like of shape (n_samples,)
        Targets in {0, 1}.
    gamma : array-like of shape (n_samples, n_components)
        The responsibilities of the E-step (14.48).
    W_old : array-like of shape (n_components, n_basis), default=None
        The previous weights: the starting points of the IRLS fits.
    sample_weight : array-like of shape (n_samples,), default=None
        The points' weights s_n (all ones if None).
    l2 : float, default=0.0
        The ridge penalty (l2/2)‖w_k‖² of every component (bias included). With ``l2=0`` the
        weights of a component whose points are linearly separable grow without bound and
        its IRLS fit does not converge.
    max_newton_steps : int, default=50
        Most Newton steps per component.
    return_n_iter : bool, default=False
        Also return the Newton steps taken and the convergence of each IRLS fit.

    Returns
    -------
    pi : ndarray of shape (n_components,)
        The mixing coefficients.
    W : ndarray of shape (n_components, n_basis)
        The component weights.
    n_iter : ndarray of shape (n_components,)
        Newton steps of each component (0 for a component without points); only if
        ``return_n_iter``.
    converged : ndarray of shape (n_components,)
        Whether each IRLS fit converged (True for a component without points); only if
        ``return_n_iter``.
    """
    Phi, t = check_data(Phi, t)
    sample_weight = check_weights(sample_weight, len(t))
    R = weigh(check_responsibilities(gamma, len(t)), sample_weight)
    K, M = R.shape[1], Phi.shape[1]
    W = np.zeros((K, M)) if W_old is None else check_coef(W_old, M).copy()
    if W.shape[0] != K:
        raise ValueError(f"W_old must have one row per column of gamma ({K}), got {W.shape[0]}")
    N_k = R.sum(axis=0)
    total = float(N_k.sum())
    n_iter, converged = np.zeros(K, dtype=int), np.ones(K, dtype=bool)
    for k in np.flatnonzero(N_k > DEAD_FRACTION * total):  # a loop over components, not samples
        W[k], n_iter[k], converged[k] = weighted_logistic_irls(
            Phi, t, R[:, k], W[k], l2=l2, max_iter=max_newton_steps
        )
    pi = N_k / total
    return (pi, W, n_iter, converged) if return_n_iter else (pi, W)


class MixtureOfLogisticRegressions(MixtureEM, ClassifierMixin, BaseEstimator):
    """Mixture of K logistic regressions for binary targets, fitted by EM (Section 14.5.2).

    The model (14.45) is p(t | φ, θ) = Σ_k π_k y_k^t (1 − y_k)^{1 − t}, y_k = σ(w_kᵀφ). EM (the
    driver :func:`prml14._em.run_em`) alternates the responsibilities
    :func:`responsibilities_logistic` (14.48) with :func:`m_step_logistic` (π_k (14.50) and a
    weighted IRLS fit per component, (14.51)-(14.52)).

    The objective EM maximises is the (weighted) log-likelihood minus a **fixed** ridge
    penalty, ln p(t | θ) − (l2/2) Σ_k ‖w_k‖²; it never decreases from one iteration to the next
    (``objective_history_``). With the default ``l2=0`` this is the maximum likelihood of the
    book and ``objective_history_`` equals ``log_likelihood_history_``.

    Separable data. If the points a component is responsible for are linearly separable, the
    maximum-likelihood weights are infinite: with ``l2=0`` the IRLS fit of that component does
    not converge, its weights keep growing with every iteration, and ``fit`` ends with a
    ``ConvergenceWarning`` that says so. The penalty is never changed behind the user's back
    (that would change the objective in the middle of EM): choose ``l2 > 0`` for finite
    weights, e.g. ``l2=1e-3`` (the penalty is not scaled by N).

    Parameters
    ----------
    n_components : int, default=2
        K, the number of logistic components; must not exceed the number of samples.
    max_iter : int, default=200
        Maximum number of EM iterations per initialisation.
    tol : float, default=1e-6
        Stop when the objective per unit of sample weight changes by at most ``tol``.
    n_init : int, default=1
        Number of initialisations; the run with the highest objective is kept.
    init : {"random", "random_hard"} or array-like of shape (n_samples, n_components), \
default="random"
        Initial responsibilities: Dirichlet(1, ..., 1) rows, a random hard assignment, or the
        given array (then ``n_init`` must be 1).
    l2 : float, default=0.0
        Ridge penalty (l2/2)‖w_k‖² added to each component's M-step objective, fixed for the
        whole fit.
    fit_intercept : bool, default=True
        If True the basis is φ(x) = (1, x); otherwise X is used as Φ unchanged.
    random_state : int, RandomState instance or None, default=None
        Seeds the random initialisations.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``classes_[1]`` is coded t = 1.
    weights_ : ndarray of shape (n_components,)
        Mixing coefficients π_k.
    coef_ : ndarray of shape (n_components, n_basis)
        Row k is w_k.
    responsibilities_ : ndarray of shape (n_samples, n_components)
        γ_nk of the training data at the fitted parameters.
    log_likelihood_history_ : ndarray of shape (``n_iter_`` + 1,)
        The log of (14.46) (weighted) after the initial M-step and after every EM iteration.
    objective_history_ : ndarray of shape (``n_iter_`` + 1,)
        The log-likelihood minus the penalty; it never decreases.
    lower_bound_ : float
        The final objective, ``objective_history_[-1]``.
    n_iter_ : int
        EM iterations of the kept run.
    converged_ : bool
        Whether the kept run met the stopping rule.
    n_features_in_ : int
        Number of input features.
    """

    _parameter_constraints = {
        **MixtureEM._parameter_constraints,
        "l2": [Interval(numbers.Real, 0, None, closed="left")],
    }
    _NEWTON_STEPS = 50

    def __init__(
        self,
        n_components=2,
        *,
        max_iter=200,
        tol=1e-6,
        n_init=1,
        init="random",
        l2=0.0,
        fit_intercept=True,
        random_state=None,
    ):
        self.n_components = n_components
        self.max_iter = max_iter
        self.tol = tol
        self.n_init = n_init
        self.init = init
        self.l2 = l2
        self.fit_intercept = fit_intercept
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit the mixture by EM.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.
        y : array-like of shape (n_samples,)
            Binary labels (exactly two distinct values).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights s_n: they multiply each point's responsibilities in the
            M-step and its term of the log-likelihood.

        Returns
        -------
        self
            The fitted estimator.
        """
        X, y = validate_data(self, X, y)
        self.classes_, t = binary_targets(y)
        t = 0.5 * (t + 1.0)  # {−1, +1} -> {0, 1}
        self._check_n_components(X.shape[0])
        sample_weight = check_weights(sample_weight, X.shape[0])
        Phi, l2 = self._design(X), float(self.l2)

        def e_step(params):
            return responsibilities_logistic(
                Phi, t, *params[:2], sample_weight=sample_weight, return_log_likelihood=True
            )

        def m_step(gamma, params):  # params: (π, W, whether each IRLS fit converged)
            pi, W, _, converged = m_step_logistic(
                Phi,
                t,
                gamma,
                None if params is None else params[1],
                sample_weight=sample_weight,
                l2=l2,
                max_newton_steps=self._NEWTON_STEPS,
                return_n_iter=True,
            )
            return pi, W, converged

        def penalty(params):
            return 0.5 * l2 * float(np.sum(params[1] ** 2))

        rng = check_random_state(self.random_state)
        result = self._run_em(
            len(t), e_step, m_step, sample_weight, rng, penalty if l2 > 0 else None
        )
        self.weights_, self.coef_, irls_converged = result.params
        self.objective_history_ = result.objective_history
        if not np.all(irls_converged):
            warn_at_caller(
                f"The IRLS M-step of component(s) {np.flatnonzero(~irls_converged).tolist()} "
                f"did not converge in {self._NEWTON_STEPS} Newton steps at the last EM "
                "iteration. "
                + (
                    "The points they are responsible for look linearly separable: the "
                    "maximum-likelihood weights are infinite and coef_ is only as large as the "
                    "iterations made it. Set l2 > 0 (e.g. l2=1e-3) for finite weights."
                    if l2 == 0.0
                    else "Increase l2."
                )
            )
        return self

    def _design_checked(self, X):
        check_is_fitted(self)
        return self._design(validate_data(self, X, reset=False))

    def predict_proba(self, X):
        """Class probabilities from (14.45): column 1 is Σ_k π_k σ(w_kᵀφ(x)).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples, 2)
            The probabilities of ``classes_[0]`` and ``classes_[1]``.
        """
        p1 = mixture_of_logistic_regressions_proba(
            self._design_checked(X), self.weights_, self.coef_
        )
        p1 = np.clip(p1, 0.0, 1.0)
        return np.column_stack([1.0 - p1, p1])

    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples, 2)
            The log probabilities (ln 0 = −∞).
        """
        return log_or_minus_inf(self.predict_proba(X))

    def predict(self, X):
        """The label with the larger probability (14.45).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            The predicted labels.
        """
        proba = self.predict_proba(X)
        return self.classes_[(proba[:, 1] > 0.5).astype(int)]

    def log_likelihood(self, X, y):
        """The log of (14.46) for labels y (coded by ``classes_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.
        y : array-like of shape (n_samples,)
            Labels among ``classes_``.

        Returns
        -------
        float
            The log-likelihood.
        """
        check_is_fitted(self)
        X, y = validate_data(self, X, y, reset=False)  # y: 1-D, one label per row of X
        t = fitted_binary_targets(y, self.classes_)
        return mixture_of_logistic_regressions_log_likelihood(
            self._design(X), t, self.weights_, self.coef_
        )
