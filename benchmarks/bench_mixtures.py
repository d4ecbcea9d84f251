"""EM for mixtures of linear/logistic regressions and of experts: time per iteration, peak memory.

For N = 10^5 and 10^6 points, K = 3 components and M = 4 basis functions (φ = (1, x1, x2, x3)) it
measures, single-threaded, for one EM iteration (E-step + M-step, exactly the code that ``fit``
runs; for the mixture of linear experts the M-step also fits the softmax gates by Newton's method):

* the wall-clock time (best of a few repeats);
* the peak of the memory allocated during the iteration (``tracemalloc``, which sees numpy's
  buffers), as a multiple of the size of the data (Φ and t);
* side by side, scikit-learn doing the M-step's work: K weighted fits of
  ``LinearRegression(sample_weight=γ_·k)`` (resp. ``LogisticRegression``), which is what one
  would write without the batched normal equations; for the experts, the same K linear fits
  plus the gates as a multinomial ``LogisticRegression`` on the K·N rows (x_n, class k) with
  weights γ_nk (scikit-learn takes no soft targets).

The last column checks linear scaling: time(10^6) / time(10^5) should be 10 ± 30 %.

Usage::

    python benchmarks/bench_mixtures.py            # N = 1e5 and 1e6 (a few minutes)
    python benchmarks/bench_mixtures.py --quick    # N = 1e4 and 1e5 (seconds)
"""

from __future__ import annotations

import argparse
import functools
import tracemalloc
import warnings

import numpy as np
from _timing import median_time, row
from sklearn.linear_model import LinearRegression, LogisticRegression
from threadpoolctl import threadpool_limits

import prml14.mixtures.experts
from prml14 import (
    MixtureOfLinearRegressions,
    MixtureOfLogisticRegressions,
    m_step_linear,
    m_step_logistic,
    responsibilities_linear,
    responsibilities_logistic,
)
from prml14.mixtures.conditional_mixture import affine_features
from prml14.mixtures.expert_estimators import MixtureOfExpertsRegressor
from prml14.mixtures.experts import (
    expert_responsibilities,
    gaussian_expert_log_density,
    hierarchical_gates_m_step,
    hierarchical_log_gates,
    linear_experts_m_step,
)

K, D = 3, 3  # components; input dimension (M = D + 1 = 4 basis functions)


def data(n, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, D))
    W = rng.normal(size=(K, D + 1)) * 2
    z = rng.integers(K, size=n)
    a = W[z, 0] + np.einsum("nd,nd->n", X, W[z, 1:])
    t_lin = a + 0.3 * rng.standard_normal(n)
    t_log = (rng.uniform(size=n) < 1 / (1 + np.exp(-a))).astype(float)
    return X, t_lin, t_log


class _MixtureAdapter:
    """One EM iteration of a mixture, exactly as ``fit`` runs it: its public E- and M-steps."""

    def __init__(self, kind, t):
        self.kind, self.floor = kind, 1e-10 * float(np.var(t))

    def e_step(self, Phi, t, params):  # responsibilities (14.37) / (14.48)
        kwargs = {"return_log_likelihood": True, "check_input": False}  # as fit runs them
        if self.kind == "logistic":
            return responsibilities_logistic(Phi, t, *params, **kwargs)
        return responsibilities_linear(Phi, t, *params, **kwargs)

    def m_step(self, Phi, t, gamma, params):  # (14.38), (14.42), (14.44) or (14.50)-(14.52)
        W_old = None if params is None else params[1]
        if self.kind == "logistic":
            return m_step_logistic(Phi, t, gamma, W_old, check_input=False)
        return m_step_linear(Phi, t, gamma, W_old, floor=self.floor, check_input=False)


def setup(model, X, t, seed=0):
    """A mixture in the middle of EM: parameters from one M-step on random responsibilities."""
    model.fit(X[:2000], t[:2000])  # the estimator runs on a small slice (warm caches, checks)
    kind = "logistic" if isinstance(model, MixtureOfLogisticRegressions) else "linear"
    Phi = affine_features(X)
    gamma = np.random.default_rng(seed).dirichlet(np.ones(K), size=len(t))
    adapter = _MixtureAdapter(kind, t)
    return adapter, Phi, adapter.m_step(Phi, t, gamma, None)


def one_iteration(model, Phi, t, params):
    gamma, _ = model.e_step(Phi, t, params)  # E-step (14.37)/(14.48)
    return model.m_step(Phi, t, gamma, params)  # M-step (14.38)/(14.42)/(14.44) or (14.50)-(14.52)


class ExpertsIteration:
    """One EM iteration of MixtureOfExpertsRegressor, composed from the public core functions.

    The same calls, with the same settings, as ``fit`` makes (E-step: gates π_k(x_n) times
    expert densities, normalised; M-step: the experts, then the gate by soft-target Newton
    steps), behind the (e_step, m_step) interface that ``one_iteration`` uses.
    """

    def __init__(self, model, variance_floor):
        self.model, self.floor = model, variance_floor

    def e_step(self, Phi, t, params):
        gate_coefs, coef, precision = params
        log_gates = hierarchical_log_gates(Phi, gate_coefs)
        gamma, log_lik = expert_responsibilities(
            log_gates, gaussian_expert_log_density(Phi, t, coef, precision)
        )
        return gamma, float(log_lik.sum())

    def m_step(self, Phi, t, gamma, params):
        gate_coefs, coef, precision = params
        m = self.model
        coef, precision = linear_experts_m_step(
            Phi, t, gamma, coef, precision, l2=m.expert_l2, variance_floor=self.floor
        )
        gates = hierarchical_gates_m_step(
            Phi, gamma, gate_coefs, l2=m.gate_l2, max_iter=m.inner_max_iter
        )
        return gates, coef, precision


def setup_experts(X, t, seed=0):
    """A mixture of linear experts in the middle of EM (parameters from random γ)."""
    model = MixtureOfExpertsRegressor(K)
    Phi = affine_features(X)
    gamma = np.random.default_rng(seed).dirichlet(np.ones(K), size=len(t))
    floor = 1e-6 * float(np.var(t))  # the estimator's floor on the experts' variances
    iteration = ExpertsIteration(model, floor)
    start = (
        [np.zeros((1, Phi.shape[1], K))],
        np.zeros((K, Phi.shape[1])),
        np.full(K, 1 / np.var(t)),
    )
    return iteration, Phi, iteration.m_step(Phi, t, gamma, start)


def peak_memory(function):
    tracemalloc.start()
    tracemalloc.reset_peak()
    function()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def sklearn_m_step(kind, X, t, gamma):
    for k in range(K):
        if kind == "logistic":
            LogisticRegression(C=1e6, max_iter=200).fit(X, t, sample_weight=gamma[:, k])
        else:
            LinearRegression().fit(X, t, sample_weight=gamma[:, k])
    if kind == "experts":  # the gates: soft targets as K weighted copies of every row
        LogisticRegression(C=1e4, max_iter=200).fit(
            np.repeat(X, K, axis=0), np.tile(np.arange(K), len(X)), sample_weight=gamma.ravel()
        )


def count_newton_steps(model, Phi, t, params):
    """Newton (IRLS) steps of the M-step of one EM iteration (logistic components or gates)."""
    if isinstance(model, _MixtureAdapter) and model.kind == "logistic":
        gamma, _ = model.e_step(Phi, t, params)  # the M-step reports its steps per component
        n_iter = m_step_logistic(Phi, t, gamma, params[1], return_n_iter=True)[2]
        return int(n_iter.sum())
    steps = []
    patched = [(prml14.mixtures.experts, "weighted_softmax_irls")]
    originals = [getattr(module, name) for module, name in patched]

    def counting(original):
        def wrapper(*args, **kwargs):
            result = original(*args, **kwargs)
            steps.append(result[1])
            return result

        return wrapper

    for (module, name), original in zip(patched, originals, strict=True):
        setattr(module, name, counting(original))
    try:
        one_iteration(model, Phi, t, params)
    finally:
        for (module, name), original in zip(patched, originals, strict=True):
            setattr(module, name, original)
    return sum(steps)


def run(sizes, repeats):
    rows = []
    for kind, cls in (
        ("linear", MixtureOfLinearRegressions),
        ("logistic", MixtureOfLogisticRegressions),
        ("experts", MixtureOfExpertsRegressor),
    ):
        previous = None
        for n in sizes:
            X, t_lin, t_log = data(n)
            t = t_log if kind == "logistic" else t_lin
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if kind == "experts":
                    model, Phi, params = setup_experts(X, t)
                else:
                    model, Phi, params = setup(cls(K, max_iter=3, tol=0.0, random_state=0), X, t)
            data_bytes = Phi.nbytes + t.nbytes
            iteration = functools.partial(one_iteration, model, Phi, t, params)
            seconds, _ = median_time(iteration, repeats)
            peak = peak_memory(iteration)
            gamma = np.random.default_rng(1).dirichlet(np.ones(K), size=n)
            sk_seconds, _ = median_time(
                functools.partial(sklearn_m_step, kind, X, t, gamma), repeats
            )
            steps = count_newton_steps(model, Phi, t, params)
            ratio = "" if previous is None else f"{seconds / previous[0]:.1f}"
            if previous is not None and steps:
                # the work of a Newton M-step also depends on how many steps it needs
                ratio += f" ({seconds / steps / (previous[0] / previous[1]):.1f} per Newton step)"
            name = "experts (linear, softmax gates)" if kind == "experts" else kind
            rows.append(
                (name, n, seconds, sk_seconds, peak / 2**20, peak / data_bytes, steps or "", ratio)
            )
            previous = (seconds, steps)
    return rows


def benchmark(quick=False):
    """Rows for ``make bench`` (benchmarks/run.py): one EM iteration at N = 100 000 against
    scikit-learn fitting the K weighted models it stands for (goal: at least as fast; for the
    logistic mixture 1.5×, on CPUs with and without AVX-512)."""
    n = 10**4 if quick else 10**5
    with threadpool_limits(1):
        results = run((n,), repeats=3)
    return [
        row(
            f"one EM iteration: {kind}",
            f"N={n:,}, K={K}, M={D + 1}",
            seconds,
            sk_seconds,
            min_speedup=1.5 if kind == "logistic" else 1.0,
            note=f"{steps} Newton steps" if steps else "",
        )
        for kind, n, seconds, sk_seconds, _, _, steps, _ in results
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="N = 1e4 and 1e5 instead of 1e5 and 1e6"
    )
    args = parser.parse_args()
    sizes = (10**4, 10**5) if args.quick else (10**5, 10**6)
    with threadpool_limits(1):
        rows = run(sizes, repeats=3)
    print(f"EM iteration, K = {K}, M = {D + 1} basis functions, single-threaded\n")
    print(
        "| model | N | prml14 s/iteration | scikit-learn K weighted fits (s) | ratio | peak MiB "
        "| peak / data | Newton steps | time ×N10 |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for kind, n, s, sk, mib, mult, steps, ratio in rows:
        print(
            f"| {kind} | {n:,} | {s:.4f} | {sk:.3f} | {sk / s:.1f}× | {mib:.1f} | {mult:.1f} "
            f"| {steps} | {ratio} |"
        )


if __name__ == "__main__":
    main()
