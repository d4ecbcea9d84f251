"""The engine of weighted logistic IRLS: Newton steps for K components at once (private).

:func:`prml14.mixtures.irls.weighted_logistic_irls` (one component) and the M-steps of the mixture
of logistic regressions and of the logistic experts (K components) all run
:func:`logistic_newton`. The components share Φ and t, so a Newton step is one pass over the
samples for all of them, in blocks whose work arrays stay in cache.
"""

from __future__ import annotations

import numpy as np

__all__ = []

#: A predicted gain below this fraction of |L| is below an eighth of L's last digit.
_INVISIBLE = np.finfo(np.float64).eps / 16


def _newton_direction(H, g):
    """Solve H d = g by Cholesky, adding a growing jitter if H is not (numerically) positive
    definite."""
    m = H.shape[0]
    scale = max(np.trace(H) / m, 1.0)
    jitter = 0.0
    for _ in range(20):
        try:
            L = np.linalg.cholesky(H + jitter * np.eye(m))
        except np.linalg.LinAlgError:
            jitter = 1e-10 * scale if jitter == 0.0 else 10.0 * jitter
            continue
        z = np.linalg.solve(L, g)  # triangular systems are small (n_basis × n_basis)
        return np.linalg.solve(L.T, z)
    # Should not happen: the jitter has reached 1e9 × scale. Fall back to a gradient step.
    return g / (jitter or 1.0)


def _softplus_into(A, out, work):
    """ln(1 + e^A) = max(A, 0) + ln(1 + e^−|A|) into ``out``, with no temporary array."""
    np.abs(A, out=out)
    np.negative(out, out=out)
    np.exp(out, out=out)
    np.log1p(out, out=out)
    return np.add(out, np.maximum(A, 0.0, out=work), out=out)


def _curvature_and_residual(A, R, t, out, work):
    """R y(1 − y) into ``out``, R (t − y) into ``work``: y = σ(A) via q = σ(−|A|)."""
    q = np.exp(np.negative(np.abs(A, out=work), out=work), out=work)
    return _curvature_from_exp(q, A, R, t, out)


def _curvature_from_exp(q, A, R, t, out):
    """:func:`_curvature_and_residual` from q = e^{−|A|} (overwritten: R (t − y) is put there)."""
    np.divide(q, np.add(q, 1.0, out=out), out=q)  # y = q where A < 0, 1 − q where A >= 0
    np.multiply(np.multiply(np.subtract(1.0, q, out=out), q, out=out), R, out=out)
    y = np.add(np.copysign(np.subtract(0.5, q, out=q), A, out=q), 0.5, out=q)
    return out, np.multiply(np.subtract(t, y, out=y), R, out=y)


class _Blocks:
    """Passes over the samples in blocks of ``size``, for K logistic problems sharing Φ and t.

    Each pass recomputes A = W Φᵀ block by block into small work arrays that are reused (large
    temporaries cost more in page faults and cache misses than the arithmetic). Every product
    is done row by row, so a component's arithmetic does not depend on the other components
    in the batch: the batched solver gives bitwise the results of one component at a time.
    """

    size = 8192

    def __init__(self, Phi, t, R):
        self.PT, self.t, self.RT = np.ascontiguousarray(Phi.T), t, np.ascontiguousarray(R.T)
        self.slices = [slice(i, i + self.size) for i in range(0, len(t), self.size)]
        self.work, self.rows, self.R = {}, None, None

    def arrays(self, rows, W):
        """For each block: Φᵀ, t, R (components first), A = W Φᵀ and two scratch arrays."""
        if self.rows is None or not np.array_equal(rows, self.rows):
            self.rows, self.R = rows, self.RT[rows]
        for sl in self.slices:
            PT = self.PT[:, sl]
            key = (len(rows), PT.shape[1])
            if key not in self.work:
                self.work[key] = [np.empty(PT.shape)] + [np.empty(key) for _ in range(4)]
            self.scratch, A, out, work, self.exp = self.work[key]
            for w, a in zip(W, A, strict=True):
                np.dot(w, PT, out=a)
            yield PT, self.t[sl], self.R[:, sl], A, out, work

    def objectives(self, rows, W, l2):
        """Σ_n R_nk {t_n a_nk − ln(1 + e^a_nk)} − (l2/2)‖w_k‖² for the components ``rows``."""
        total = np.zeros(len(rows))
        for _, t, R, A, out, work in self.arrays(rows, W):
            _softplus_into(A, out, work)  # t ln σ(a) + (1 − t) ln σ(−a) = t a − ln(1 + e^a)
            np.subtract(np.multiply(A, t, out=work), out, out=work)
            total += [np.dot(r, v) for r, v in zip(R, work, strict=True)]
        return total - 0.5 * l2 * np.array([np.dot(w, w) for w in W])

    def evaluate(self, rows, W, l2):
        """:meth:`objectives` and :meth:`newton` in one pass: both read e^{−|a|}, one
        exponential per entry instead of two (bit for bit the values of the two passes)."""
        k, m = W.shape
        total = np.zeros(k)
        G, H, curvature = np.zeros((k, m)), np.zeros((k, m, m)), np.zeros(k)
        for PT, t, R, A, out, work in self.arrays(rows, W):
            q = np.exp(np.negative(np.abs(A, out=self.exp), out=self.exp), out=self.exp)
            np.log1p(q, out=out)
            np.add(out, np.maximum(A, 0.0, out=work), out=out)  # ln(1 + e^a), as _softplus_into
            np.subtract(np.multiply(A, t, out=work), out, out=work)
            total += [np.dot(r, v) for r, v in zip(R, work, strict=True)]
            S, res = _curvature_from_exp(q, A, R, t, out)
            curvature += S.sum(axis=1)
            for i in range(k):
                G[i] += PT @ res[i]
                H[i] += np.multiply(PT, S[i], out=self.scratch) @ PT.T
        objective = total - 0.5 * l2 * np.array([np.dot(w, w) for w in W])
        return objective, (G - l2 * W, H + l2 * np.eye(m), curvature)

    def newton(self, rows, W, l2):
        """Gradients (14.51) and negative Hessians (14.52) of the penalised objectives, and
        Σ_n R_nk y_nk (1 − y_nk) (zero when every weighted prediction has saturated)."""
        k, m = W.shape
        G, H, curvature = np.zeros((k, m)), np.zeros((k, m, m)), np.zeros(k)
        for PT, t, R, A, out, work in self.arrays(rows, W):
            S, res = _curvature_and_residual(A, R, t, out, work)
            curvature += S.sum(axis=1)
            for i in range(k):
                G[i] += PT @ res[i]
                H[i] += np.multiply(PT, S[i], out=self.scratch) @ PT.T
        return G - l2 * W, H + l2 * np.eye(m), curvature


def _newton_directions(H, G):
    """Solve every H_k d_k = g_k: one batched Cholesky, or one by one with jitter if one fails."""
    try:
        L = np.linalg.cholesky(H)
    except np.linalg.LinAlgError:
        return np.array([_newton_direction(h, g) for h, g in zip(H, G, strict=True)])
    z = np.linalg.solve(L, G[..., None])
    return np.linalg.solve(np.swapaxes(L, -1, -2), z)[..., 0]


def logistic_newton(Phi, t, R, W, *, l2=0.0, max_iter=100, tol=1e-8):
    """``prml14.mixtures.irls.weighted_logistic_irls`` for K problems at once: weights R[:, k],
    start W[k].

    The K components share Φ and t, so each Newton step is one pass over the samples for all
    of them (the gradients (14.51), the Hessians (14.52)), one batched solve and one pass for
    the line-search objectives; each component keeps its own step halving, stopping rule and
    iteration count, those of the one-component routine (which calls this with K = 1).
    Returns W (K, M), n_iter (K,) and converged (K,). No checks: see
    ``prml14.mixtures.irls._logistic_irls_batch``.
    """
    W = np.array(W, dtype=float)
    K = W.shape[0]
    n_iter, converged = np.zeros(K, dtype=int), np.zeros(K, dtype=bool)
    curvature = np.zeros(K)  # Σ_n R_nk y_nk (1 − y_nk) at the start of the last Newton step
    blocks = _Blocks(Phi, t, R)
    rows = np.arange(K)  # the components still iterating
    # the objective and the derivatives at the start, then at every full Newton step: the
    # derivatives at a full step are those of the next iteration (recomputed after a halving)
    obj, derivatives = blocks.evaluate(rows, W, l2)
    for step_number in range(1, max_iter + 1):
        n_iter[rows] = step_number
        Wa = W[rows]
        if derivatives is None:
            derivatives = blocks.newton(rows, Wa, l2)
        G, H, curvature[rows] = derivatives
        steps = _newton_directions(H, G)
        finished = ~np.all(np.isfinite(steps), axis=1)  # converged stays False
        steps[finished] = 0.0
        size = np.max(np.abs(steps), axis=1, initial=0.0)
        scale = 1.0 + np.max(np.abs(Wa), axis=1, initial=0.0)
        alpha = np.ones(len(rows))
        obj_new, derivatives = blocks.evaluate(rows, Wa + steps, l2)
        # a full step may leave L unchanged at machine precision; a halved one must increase it
        improved = ~finished & (obj_new >= obj)
        halve = np.flatnonzero(~finished & ~improved)
        # The step α d is predicted to gain α(1 − α/2) gᵀd (Newton's quadratic model, d = H⁻¹g).
        # Once that is below an eighth of the last digit of L (ε|L|/16), an evaluation can show
        # a gain only by rounding: the component stops halving, as if all 30 halvings had failed.
        gain = np.einsum("km,km->k", G, steps)
        given_up = []
        for _ in range(30):
            if len(halve) == 0:
                break
            alpha[halve] *= 0.5
            a = alpha[halve]
            visible = a * (1.0 - 0.5 * a) * gain[halve] > _INVISIBLE * np.abs(obj[halve])
            given_up.append(halve[~visible])
            halve = halve[visible]
            if len(halve) == 0:
                break
            new = blocks.objectives(rows[halve], Wa[halve] + alpha[halve, None] * steps[halve], l2)
            up = new > obj[halve]
            obj_new[halve[up]], improved[halve[up]] = new[up], True
            halve = halve[~up]
        halve = np.sort(np.concatenate([halve, *given_up]))
        # No step increases L at machine precision: convergence only if the Newton step is
        # also small (on separable data with l2 = 0, L creeps to 0 while the step grows).
        converged[rows[halve]] = size[halve] <= np.sqrt(tol) * scale[halve]
        finished[halve] = True
        W_new = Wa + alpha[:, None] * steps
        delta = np.max(np.abs(W_new - Wa), axis=1, initial=0.0)
        W[rows[improved]], obj[improved] = W_new[improved], obj_new[improved]
        small = improved & (delta <= tol * (1.0 + np.max(np.abs(W_new), axis=1, initial=0.0)))
        converged[rows[small]] = True
        finished |= small
        rows, obj = rows[~finished], obj[~finished]
        if len(rows) == 0:
            break
        full = alpha[~finished] == 1.0  # the rows go on from W + d, where derivatives were taken
        derivatives = tuple(d[~finished] for d in derivatives) if full.all() else None
    if l2 == 0.0:
        # Separation: the optimum lies at infinity, yet the iterates can "converge" numerically
        # once every weighted prediction has saturated (the Hessian then vanishes). Report it.
        # (A converged component's last step was below tol: its curvature before it is kept.)
        total = blocks.RT.sum(axis=1)
        converged &= ~((total > 0) & (curvature <= 1e-8 * total))
    return W, n_iter, converged
