"""What the two mixtures share: argument checks and the estimators' EM plumbing.

The estimators supply their E- and M-steps (public, tagged functions of :mod:`.linear` and
:mod:`.logistic`) to :func:`prml14._em.run_em`, which owns the restarts, the loop, the stopping
rule and the ``ConvergenceWarning``.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.utils import check_array
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import _check_sample_weight

from .._em import run_em
from .._numerics import log_or_minus_inf
from .._validation import check_simplex
from ..conditional_mixture import affine_features

__all__ = []


def _check_2d(a, name, shape_text):
    """A finite 2-D float array (check_array), with an error naming ``name`` if it is not 2-D."""
    if np.ndim(a) != 2:
        raise ValueError(f"{name} must be a 2-D array {shape_text}, got shape {np.shape(a)}")
    return check_array(a, dtype=np.float64, input_name=name)


def check_data(Phi, t):
    """The design matrix Φ (N, M) and the targets t (N,) as finite float arrays."""
    Phi = _check_2d(Phi, "Phi", "(n_samples, n_basis)")
    t = check_array(t, ensure_2d=False, dtype=np.float64, input_name="t")
    if t.shape != (Phi.shape[0],):
        raise ValueError(f"t must have shape (n_samples,) = ({Phi.shape[0]},), got {t.shape}")
    return Phi, t


def check_coef(W, n_basis):
    """One weight vector per row: W of shape (K, M)."""
    W = np.asarray(W, dtype=float)
    if W.ndim != 2 or W.shape[1] != n_basis:
        raise ValueError(
            f"W must have shape (n_components, n_basis) = (K, {n_basis}), got {W.shape}"
        )
    return check_array(W, input_name="W")


def check_responsibilities(gamma, n_samples=None, n_components=None):
    """Responsibilities γ of shape (N, K): finite and non-negative."""
    rows = "n_samples" if n_samples is None else f"n_samples={n_samples}"
    gamma = _check_2d(gamma, "gamma", f"({rows}, n_components)")
    if n_samples is not None and gamma.shape[0] != n_samples:
        raise ValueError(f"gamma must have shape ({rows}, n_components), got {gamma.shape}")
    if n_components is not None and gamma.shape[1] != n_components:
        raise ValueError(
            f"gamma must have one column per row of W ({n_components}), got {gamma.shape[1]}"
        )
    if np.any(gamma < 0):
        raise ValueError("gamma must be non-negative (responsibilities)")
    return gamma


def check_weights(sample_weight, n_samples):
    """None (every point counts once) or non-negative finite weights of shape (N,)."""
    if sample_weight is None:
        return None
    return _check_sample_weight(sample_weight, np.empty((n_samples, 0)), ensure_non_negative=True)


def weigh(gamma, sample_weight):
    """s_n γ_nk: the responsibilities as the M-step counts them."""
    return gamma if sample_weight is None else gamma * sample_weight[:, None]


def log_pi(pi, n_components):
    """ln π_k of checked mixing coefficients (ln 0 = −∞)."""
    return log_or_minus_inf(check_simplex(pi, n_components, name="pi"))


def weighted_sum(values, sample_weight):
    """Σ_n s_n values_n (the plain sum without weights)."""
    return float(np.sum(values) if sample_weight is None else np.dot(sample_weight, values))


class MixtureEM:
    """The parameters, the initialisation and the call of the EM driver shared by the mixtures."""

    _parameter_constraints = {
        "n_components": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "n_init": [Interval(numbers.Integral, 1, None, closed="left")],
        "init": [StrOptions({"random", "random_hard"}), "array-like"],
        "fit_intercept": ["boolean"],
        "random_state": ["random_state"],
    }

    def _design(self, X):
        return affine_features(X) if self.fit_intercept else np.asarray(X, dtype=float)

    def _check_n_components(self, n_samples):
        if self.n_components > n_samples:
            raise ValueError(
                f"n_components={self.n_components} must be <= n_samples={n_samples}; "
                "each component needs at least one data point"
            )

    def _initial_responsibilities(self, n_samples):
        """A function of the random state giving the starting responsibilities of a restart."""
        K = self.n_components
        if isinstance(self.init, str):
            if self.init == "random":
                return lambda rng: rng.dirichlet(np.ones(K), size=n_samples)
            return lambda rng: np.eye(K)[rng.randint(K, size=n_samples)]
        gamma = check_responsibilities(self.init, n_samples)
        if gamma.shape[1] != K:
            raise ValueError(
                f"init must have shape (n_samples, n_components) = ({n_samples}, {K}), "
                f"got {gamma.shape}"
            )
        if self.n_init != 1:
            raise ValueError(
                f"n_init={self.n_init} restarts from the one given init array would repeat the "
                "same run: use n_init=1"
            )
        return lambda rng: gamma

    def _run_em(self, n_samples, e_step, m_step, sample_weight, rng, penalty=None):
        """Run :func:`prml14._em.run_em` and store the traces; return the best parameters."""
        start = self._initial_responsibilities(n_samples)
        total = float(n_samples if sample_weight is None else sample_weight.sum())
        result = run_em(
            lambda random_state: m_step(start(random_state), None),
            e_step,
            m_step,
            n_init=self.n_init,
            max_iter=self.max_iter,
            tol=self.tol,
            random_state=rng,
            total_weight=total,
            penalty=penalty,
            name=type(self).__name__,
        )
        self.responsibilities_ = result.responsibilities
        self.log_likelihood_history_ = result.log_likelihood_history
        self.lower_bound_ = result.lower_bound
        self.n_iter_ = result.n_iter
        self.converged_ = result.converged
        return result
