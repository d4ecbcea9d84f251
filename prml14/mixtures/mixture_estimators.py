"""The estimators: mixtures of linear and of logistic regressions fitted by EM (14.5.1-14.5.2).

Each estimator validates its data once, then hands its E-step
(:func:`~prml14.mixtures.linear.responsibilities_linear`,
:func:`~prml14.mixtures.logistic.responsibilities_logistic`) and its M-step
(:func:`~prml14.mixtures.linear.m_step_linear`,
:func:`~prml14.mixtures.logistic.m_step_logistic`) to ``prml14._em.run_em``, which owns the
restarts, the loop, the stopping rule per unit of sample weight and the ``ConvergenceWarning``.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, _fit_context
from sklearn.cluster import KMeans
from sklearn.preprocessing import StandardScaler
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from .._em import run_em, warn_at_caller
from .._numerics import log_expit, log_or_minus_inf, logsumexp_last
from .._validation import binary_targets, check_magnitude, fitted_binary_targets
from ._base import check_responsibilities, check_weights, variance_floor
from .conditional_mixture import affine_features
from .linear import (
    m_step_linear,
    mixture_of_linear_regressions_density,
    mixture_of_linear_regressions_log_likelihood,
    responsibilities_linear,
)
from .logistic import (
    m_step_logistic,
    mixture_of_logistic_regressions_log_likelihood,
    mixture_of_logistic_regressions_proba,
    responsibilities_logistic,
)

__all__ = ["MixtureOfLinearRegressions", "MixtureOfLogisticRegressions"]


class _MixtureEM:
    """The parameters, the initialisation and the call of the EM driver shared by the mixtures."""

    _parameter_constraints = {
        "n_components": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "n_init": [Interval(numbers.Integral, 1, None, closed="left")],
        "init": [StrOptions({"random", "random_hard", "kmeans"}), "array-like"],
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

    def _initial_responsibilities(self, data, sample_weight):
        """A function of the random state giving a restart's responsibilities (``data``: X
        with t as a last column, whose weighted standardised rows ``"kmeans"`` clusters)."""
        K, n_samples = self.n_components, data.shape[0]
        if isinstance(self.init, str):
            if self.init == "random":
                return lambda rng: rng.dirichlet(np.ones(K), size=n_samples)
            if self.init == "random_hard":
                return lambda rng: np.eye(K)[rng.randint(K, size=n_samples)]
            scaled = StandardScaler().fit_transform(data, sample_weight=sample_weight)
            return lambda rng: np.eye(K)[
                KMeans(K, n_init=1, random_state=rng.randint(2**31 - 1)).fit_predict(
                    scaled, sample_weight=sample_weight
                )
            ]
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

    def _run_em(self, data, e_step, m_step, sample_weight, rng, penalty=None):
        """Run ``prml14._em.run_em`` and store the traces; return the best parameters."""
        start = self._initial_responsibilities(data, sample_weight)
        total = float(data.shape[0] if sample_weight is None else sample_weight.sum())
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


class MixtureOfLinearRegressions(_MixtureEM, RegressorMixin, BaseEstimator):
    """Mixture of K linear regressions with a shared noise precision, fitted by EM (14.5.1).

    The model (14.34) is p(t | φ, θ) = Σ_k π_k N(t | w_kᵀφ, β⁻¹) with constant mixing
    coefficients π_k and basis φ = (1, x) (or the columns of X if ``fit_intercept=False``).
    EM (the driver ``prml14._em.run_em``) alternates the responsibilities
    :func:`~prml14.mixtures.linear.responsibilities_linear` (14.37) with
    :func:`~prml14.mixtures.linear.m_step_linear` ((14.38), (14.42) for all
    components at once, (14.44)). The log-likelihood never decreases from one iteration to the
    next.

    Parameters
    ----------
    n_components : int, default=2
        K, the number of linear components; must not exceed the number of samples.
    max_iter : int, default=200
        Maximum number of EM iterations (M-step + E-step) per initialisation.
    tol : float, default=1e-6
        Stop when the log-likelihood (14.35) per unit of sample weight changes by at most
        ``tol`` (by ``tol × N`` in total with unit weights).
    n_init : int, default=1
        Number of initialisations; the run with the highest log-likelihood is kept.
    init : {"random", "random_hard", "kmeans"} or array-like of shape \
(n_samples, n_components), default="random"
        Initial responsibilities: Dirichlet(1, ..., 1) rows, a random hard assignment, the
        hard clusters of k-means on the standardised columns of X and t, or the given array
        (then ``n_init`` must be 1), turned into parameters by the first M-step. Random
        starts begin every component near the one least-squares line, where EM can stop
        when the components lie far apart: ``"kmeans"`` is then the better choice.
    fit_intercept : bool, default=True
        If True the basis is φ(x) = (1, x); otherwise X is used as Φ unchanged (user features).
    random_state : int, RandomState instance or None, default=None
        Seeds the random initialisations.

    Attributes
    ----------
    weights_ : ndarray of shape (n_components,)
        Mixing coefficients π_k.
    coef_ : ndarray of shape (n_components, n_basis)
        Row k is w_k (with the intercept first if ``fit_intercept``).
    precision_ : float
        The noise precision β (inverse variance).
    responsibilities_ : ndarray of shape (n_samples, n_components)
        γ_nk of the training data at the fitted parameters.
    log_likelihood_history_ : ndarray of shape (``n_iter_`` + 1,)
        The (weighted) log-likelihood (14.35) after the initial M-step and after every EM
        iteration; it never decreases.
    lower_bound_ : float
        The final log-likelihood, ``log_likelihood_history_[-1]``.
    n_iter_ : int
        EM iterations of the kept run.
    converged_ : bool
        Whether the kept run met the stopping rule.
    n_features_in_ : int
        Number of input features.
    """

    _parameter_constraints = dict(_MixtureEM._parameter_constraints)

    def __init__(
        self,
        n_components=2,
        *,
        max_iter=200,
        tol=1e-6,
        n_init=1,
        init="random",
        fit_intercept=True,
        random_state=None,
    ):
        self.n_components = n_components
        self.max_iter = max_iter
        self.tol = tol
        self.n_init = n_init
        self.init = init
        self.fit_intercept = fit_intercept
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit the mixture by EM.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.
        y : array-like of shape (n_samples,)
            Real targets t.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights s_n: they multiply each point's responsibilities in the
            M-step and its term of the log-likelihood (an integer weight counts the point that
            many times).

        Returns
        -------
        self
            The fitted estimator.

        Raises
        ------
        ValueError
            If X is empty, not 2-D, not numeric, complex, or holds NaN or ±inf or has entries
            beyond 1e150 in magnitude; there are fewer samples than n_components; y holds NaN or
            ±inf or exceeds 1e150 in magnitude; sample_weight is negative, NaN, all zero, beyond
            1e100 in magnitude or not one per sample; init is an array of responsibilities that is
            not (n_samples, n_components); or a hyper-parameter is outside its declared constraints
            (scikit-learn's InvalidParameterError, which is also a TypeError).
        """
        X, t = validate_data(self, X, y, y_numeric=True)
        check_magnitude(X, "X")
        check_magnitude(t, "y")
        self._check_n_components(X.shape[0])
        sample_weight = check_weights(sample_weight, X.shape[0])
        Phi, t = self._design(X), t.astype(float)
        floor = variance_floor(t, sample_weight)  # computed once, not in every M-step

        def e_step(params):
            return responsibilities_linear(
                Phi,
                t,
                *params,
                sample_weight=sample_weight,
                return_log_likelihood=True,
                check_input=False,
            )

        def m_step(gamma, params):
            W_old = None if params is None else params[1]
            return m_step_linear(
                Phi, t, gamma, W_old, sample_weight=sample_weight, floor=floor, check_input=False
            )

        rng = check_random_state(self.random_state)
        result = self._run_em(np.column_stack([X, t]), e_step, m_step, sample_weight, rng)
        self.weights_, self.coef_, self.precision_ = result.params
        return self

    def _validated(self, X, t=None):
        check_is_fitted(self)
        if t is None:
            return self._design(validate_data(self, X, reset=False)), None
        X, t = validate_data(self, X, t, reset=False, y_numeric=True)
        return self._design(X), t.astype(float)

    def component_means(self, X):
        """W φ(x): the mean w_kᵀφ(x) of each component.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_components)
            The component means.
        """
        Phi, _ = self._validated(X)
        return Phi @ self.coef_.T

    def predict(self, X):
        """The conditional mean E[t | x] = Σ_k π_k w_kᵀφ(x) (Exercise 14.15).

        For multimodal targets this average can fall where there is no data at all.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            The conditional means.
        """
        return self.component_means(X) @ self.weights_

    def predict_density(self, X, y):
        """p(t_n | x_n), equation (14.34), at each pair (x_n, t_n = y_n).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.
        y : array-like of shape (n_samples,)
            The targets.

        Returns
        -------
        ndarray of shape (n_samples,)
            The densities.
        """
        Phi, t = self._validated(X, y)
        return mixture_of_linear_regressions_density(
            Phi, t, self.weights_, self.coef_, self.precision_
        )

    def log_likelihood(self, X, y):
        """ln p(t | X, θ), equation (14.35), summed over the pairs (t = y).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.
        y : array-like of shape (n_samples,)
            The targets.

        Returns
        -------
        float
            The log-likelihood.
        """
        Phi, t = self._validated(X, y)
        return mixture_of_linear_regressions_log_likelihood(
            Phi, t, self.weights_, self.coef_, self.precision_
        )

    def sample(self, X, random_state=None):
        """Draw t_n ~ p(t | x_n): first k ~ π, then t ~ N(w_kᵀφ(x_n), β⁻¹).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.
        random_state : int, RandomState instance or None, default=None
            Seeds the draws.

        Returns
        -------
        t : ndarray of shape (n_samples,)
            The draws.
        labels : ndarray of shape (n_samples,)
            The component k of each draw.
        """
        means = self.component_means(X)
        rng = check_random_state(random_state)
        labels = rng.choice(
            self.n_components, size=len(means), p=self.weights_ / self.weights_.sum()
        )
        noise = rng.standard_normal(len(means)) / np.sqrt(self.precision_)
        return means[np.arange(len(means)), labels] + noise, labels


class MixtureOfLogisticRegressions(_MixtureEM, ClassifierMixin, BaseEstimator):
    """Mixture of K logistic regressions for binary targets, fitted by EM (Section 14.5.2).

    The model (14.45) is p(t | φ, θ) = Σ_k π_k y_k^t (1 − y_k)^{1 − t}, y_k = σ(w_kᵀφ). EM (the
    driver ``prml14._em.run_em``) alternates the responsibilities
    :func:`~prml14.mixtures.logistic.responsibilities_logistic` (14.48) with
    :func:`~prml14.mixtures.logistic.m_step_logistic` (π_k (14.50) and a
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
    init : {"random", "random_hard", "kmeans"} or array-like of shape \
(n_samples, n_components), default="random"
        Initial responsibilities: Dirichlet(1, ..., 1) rows, a random hard assignment, the
        hard clusters of k-means on the standardised columns of X and t, or the given array
        (then ``n_init`` must be 1).
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
        **_MixtureEM._parameter_constraints,
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

        Raises
        ------
        ValueError
            If X is empty, not 2-D, not numeric, complex, or holds NaN or ±inf or has entries
            beyond 1e150 in magnitude; y does not have exactly two classes; sample_weight is
            negative, NaN, all zero, beyond 1e100 in magnitude or not one per sample; init is an
            array of responsibilities that is not (n_samples, n_components); or a hyper-parameter
            is outside its declared constraints (scikit-learn's InvalidParameterError, which is
            also a TypeError).
        """
        X, y = validate_data(self, X, y)
        check_magnitude(X, "X")
        self.classes_, t = binary_targets(y)
        t = 0.5 * (t + 1.0)  # {−1, +1} -> {0, 1}
        self._check_n_components(X.shape[0])
        sample_weight = check_weights(sample_weight, X.shape[0])
        Phi, l2 = self._design(X), float(self.l2)

        def e_step(params):
            return responsibilities_logistic(
                Phi,
                t,
                *params[:2],
                sample_weight=sample_weight,
                return_log_likelihood=True,
                check_input=False,
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
                check_input=False,
            )
            return pi, W, converged

        def penalty(params):
            return 0.5 * l2 * float(np.sum(params[1] ** 2))

        rng = check_random_state(self.random_state)
        data, penalty = np.column_stack([X, t]), penalty if l2 > 0 else None
        result = self._run_em(data, e_step, m_step, sample_weight, rng, penalty)
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
        """Logarithm of :meth:`predict_proba`, computed in the log domain.

        ln p(t = 1 | x) = ln Σ_k π_k σ(a_k) is the log-sum-exp over k of ln π_k + ln σ(a_k), and
        ln p(t = 0 | x) that of ln π_k + ln σ(−a_k), with a_k = w_kᵀφ(x): a saturated σ(a_k)
        (a point far on one side of every boundary) gives a large negative log probability,
        not ln 0 = −∞ or ln of a rounding error.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples, 2)
            The log probabilities of ``classes_[0]`` and ``classes_[1]``.
        """
        A = self._design_checked(X) @ self.coef_.T
        log_pi = log_or_minus_inf(self.weights_)
        return np.column_stack(
            [logsumexp_last(log_pi + log_expit(-A)), logsumexp_last(log_pi + log_expit(A))]
        )

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
