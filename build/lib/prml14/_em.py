"""The one EM driver shared by the mixtures, the mixtures of experts, the HME and bma.

Each model supplies only its steps; the driver owns everything else, in the manner of
scikit-learn's ``sklearn/mixture/_base.py``: the restarts (``n_init``), the loop, the stopping
rule on the change of the objective, the choice of the best restart, the
``ConvergenceWarning`` that points at the caller's line, and the traces.

The stopping rule: stop when ``|objective_new - objective_old| <= tol * total_weight``, i.e.
when the objective *per unit of sample weight* (per point, with unit weights) changes by at
most ``tol``. The objective is the log-likelihood, minus a penalty when the model has one
(``penalty`` below); EM never decreases it (Section 9.4 of PRML; a fixed penalty keeps this
true when the M-step maximises the penalised expected complete-data log-likelihood).
"""

from __future__ import annotations

import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sklearn.exceptions import ConvergenceWarning

__all__ = ["EMResult", "run_em", "warn_at_caller"]

_PACKAGE_DIR = str(Path(__file__).resolve().parent)
_SKLEARN_DIR = str(Path(sys.modules["sklearn"].__file__).resolve().parent)


@dataclass
class EMResult:
    """The outcome of the best EM restart.

    Attributes
    ----------
    params : object
        The model's parameters after the last M-step (whatever ``m_step`` returns).
    responsibilities : ndarray of shape (n_samples, n_components)
        The responsibilities of the last E-step, computed from ``params``.
    log_likelihood_history : ndarray of shape (n_iter + 1,)
        The log-likelihood at the start and after every iteration.
    objective_history : ndarray of shape (n_iter + 1,)
        The log-likelihood minus the penalty (equal to the former without a penalty).
    n_iter : int
        The number of EM iterations (M-step then E-step) run by this restart.
    converged : bool
        Whether the stopping rule was met within ``max_iter`` iterations.
    """

    params: object
    responsibilities: np.ndarray
    log_likelihood_history: np.ndarray
    objective_history: np.ndarray
    n_iter: int
    converged: bool

    @property
    def lower_bound(self):
        """The final objective (the quantity the stopping rule and restarts compare)."""
        return float(self.objective_history[-1])


def warn_at_caller(message, category=ConvergenceWarning):
    """Issue a warning attributed to the first frame outside prml14 and scikit-learn.

    So the warning points at the user's ``model.fit(...)`` line however deep inside the
    package (and scikit-learn's ``_fit_context`` wrapper) it was raised.

    Parameters
    ----------
    message : str
        The warning text.
    category : type, default=ConvergenceWarning
        The warning class.
    """
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith((_PACKAGE_DIR, _SKLEARN_DIR)):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level + 1)


def run_em(
    initialise,
    e_step,
    m_step,
    *,
    n_init,
    max_iter,
    tol,
    random_state,
    total_weight,
    penalty=None,
    name="EM",
):
    """Run EM ``n_init`` times from ``initialise`` and keep the run with the best objective.

    One iteration is an M-step followed by an E-step, so that the stored responsibilities
    and traces always belong to the returned parameters.

    Parameters
    ----------
    initialise : callable
        ``initialise(random_state) -> params``: the starting parameters of one restart
        (typically an M-step on random responsibilities).
    e_step : callable
        ``e_step(params) -> (responsibilities, log_likelihood)``.
    m_step : callable
        ``m_step(responsibilities, params) -> params``.
    n_init : int
        The number of restarts (>= 1).
    max_iter : int
        The most iterations per restart (>= 1).
    tol : float
        Stop when the objective per unit of sample weight changes by at most ``tol``.
    random_state : numpy.random.RandomState
        Passed to ``initialise``; the loop itself draws nothing.
    total_weight : float
        The sum of the sample weights (the number of points with unit weights).
    penalty : callable, default=None
        ``penalty(params) -> float`` subtracted from the log-likelihood to form the
        objective (a fixed ridge penalty, for example).
    name : str, default="EM"
        The model's name, used in the warning.

    Returns
    -------
    EMResult
        The best restart. A ``ConvergenceWarning`` pointing at the caller is issued when
        that restart did not meet the stopping rule.
    """
    best = None
    for _ in range(n_init):
        params = initialise(random_state)
        gamma, log_lik = e_step(params)
        lik = [float(log_lik)]
        obj = [lik[-1] - (penalty(params) if penalty else 0.0)]
        converged, n_iter = False, 0
        while n_iter < max_iter:
            n_iter += 1
            params = m_step(gamma, params)
            gamma, log_lik = e_step(params)
            lik.append(float(log_lik))
            obj.append(lik[-1] - (penalty(params) if penalty else 0.0))
            if abs(obj[-1] - obj[-2]) <= tol * total_weight:
                converged = True
                break
        run = EMResult(params, gamma, np.array(lik), np.array(obj), n_iter, converged)
        if best is None or run.lower_bound > best.lower_bound:
            best = run
    if not best.converged:
        warn_at_caller(
            f"{name} did not converge in max_iter={max_iter} iterations (the change of the "
            f"objective per unit of sample weight is still above tol={tol}); increase "
            "max_iter or tol."
        )
    return best
