"""C4.5's pessimistic (error-based) pruning (Quinlan 1993, ch. 4; book page B.9).

A leaf that holds N training cases (a total weight N) and misclassifies E of them is treated as
a sample of N draws of a binomial variable whose probability p of an error is unknown. Instead
of the observed rate E/N, C4.5 uses the upper limit of a one-sided confidence interval for p at
confidence factor CF,

    U_CF(E, N) = the p at which P(X ≤ E | N, p) = CF,                          (B.41)

the largest error rate still consistent, at level CF, with having seen as few as E errors; for
E = 0 it is 1 − CF^{1/N}. A leaf is charged N · U_CF(E, N) *predicted* errors, and a subtree the
sum over its leaves. Going bottom-up, the branch below a node t is replaced by a leaf when

    N_t U_CF(E_t, N_t) ≤ Σ_{leaves τ of the pruned branch below t} N_τ U_CF(E_τ, N_τ),   (B.42)

where E_t = N_t − max_k N_tk is the training weight t's majority class misclassifies. No
validation set is needed: the pessimism of U_CF, which grows as N shrinks, is what makes small
leaves cost more than their observed errors.

Fractional E and N (the weights of C4.5's missing values, or ``sample_weight``, which counts as
numbers of cases) use the continuous extension of the binomial tail by the regularised
incomplete beta function,

    P(X ≤ E | N, p) = I_{1−p}(N − E, E + 1),

exact at integers and continuous and increasing in E between them, so that U_CF is the
quantile ``scipy.special.betaincinv(E + 1, N − E, 1 − CF)``. Where E ≥ N (which includes an
empty leaf, N = 0) every p gives P(X ≤ E) = 1 and U_CF = 1; an empty leaf is charged
N · U = 0 errors.

Differences from Quinlan's program, which approximates (B.41) (``stats.c``): for E ≥ 1 it uses
the normal (Wilson score) upper limit with a continuity correction of ½ and a z interpolated in
a short table (0.69 at CF = 25 %), for 0 < E < 1 a linear interpolation between E = 0 and 1, and
for E + ½ ≥ N the charge 0.67 (N − E) extra errors; it collapses a node when its leaf is within
0.1 of an error of the subtree; and it also tries *subtree raising* (replacing a node by its
largest branch). Here U_CF is the exact quantile, ties are decided by a relative 1e-9 only, and
there is no subtree raising.
"""

from __future__ import annotations

import numpy as np
from scipy.special import betaincinv

from .._equations import implements
from .._validation import as_float, check_magnitude, check_number, check_tree
from .reduced_error import reduced_error_subtree

__all__ = ["pessimistic_error_rate", "pessimistic_node_errors", "pessimistic_subtree"]


def _check_confidence_factor(confidence_factor):
    return check_number(
        confidence_factor, "confidence_factor", low=0.0, high=1.0, closed="neither"
    )


@implements("B.41")
def pessimistic_error_rate(n_errors, n_samples, confidence_factor=0.25):
    """U_CF(E, N): the upper confidence limit of a leaf's error rate, (B.41).

    The p at which the binomial tail P(X ≤ E | N, p) equals CF, with the tail extended to
    fractional E and N by the regularised incomplete beta function,
    P(X ≤ E | N, p) = I_{1−p}(N − E, E + 1) (exact at integers). For E = 0 it is
    1 − CF^{1/N}; where E ≥ N (an empty leaf included) it is 1.

    Parameters
    ----------
    n_errors : float or array-like
        E ≥ 0, the (weighted) number of training cases the leaf misclassifies.
    n_samples : float or array-like
        N ≥ 0, the (weighted) number of training cases in the leaf; broadcast with
        ``n_errors``.
    confidence_factor : float in (0, 1), default=0.25
        CF (C4.5's ``-c 25``); smaller values give larger limits and heavier pruning.

    Returns
    -------
    float or ndarray
        U_CF(E, N) in [0, 1].

    Raises
    ------
    TypeError
        If ``confidence_factor`` is not a real number.
    ValueError
        If ``n_errors`` or ``n_samples`` is negative, not finite or beyond 1e100, the two do
        not broadcast, or ``confidence_factor`` is not in (0, 1).
    """
    E = as_float(n_errors, "n_errors", non_negative=True)
    N = as_float(n_samples, "n_samples", non_negative=True)
    # beyond 1e100 cases scipy's inverse incomplete beta function returns NaN
    check_magnitude(E, "n_errors", 1e100)
    check_magnitude(N, "n_samples", 1e100)
    cf = _check_confidence_factor(confidence_factor)
    try:
        E, N = np.broadcast_arrays(E, N)
    except ValueError:
        raise ValueError(
            f"n_errors and n_samples must broadcast, got shapes {E.shape} and {N.shape}"
        ) from None
    out = np.ones(E.shape)
    inside = E < N
    out[inside] = betaincinv(E[inside] + 1.0, N[inside] - E[inside], 1.0 - cf)
    zero = inside & (E == 0)  # the closed form, free of the quantile's rounding
    out[zero] = -np.expm1(np.log(cf) / N[zero])
    return out if out.ndim else float(out)


@implements("B.42")
def pessimistic_node_errors(tree, confidence_factor=0.25):
    """The predicted errors N_t · U_CF(E_t, N_t) of every node as a leaf, the terms of (B.42).

    N_t is the node's training weight and E_t = N_t (1 − max_k p_tk) the weight its majority
    class misclassifies (p_tk: the node's class proportions).

    Parameters
    ----------
    tree : prml14.trees.Tree or prml14.trees.c45_estimators.MultiwayTree
        A fitted classification tree (``value`` holds class proportions).
    confidence_factor : float in (0, 1), default=0.25
        CF of (B.41).

    Returns
    -------
    ndarray of shape (n_nodes,)
        N_t U_CF(E_t, N_t) of every node.

    Raises
    ------
    TypeError
        If ``tree`` is not a fitted tree (for an estimator, pass its ``tree_``).
    ValueError
        If ``confidence_factor`` is not in (0, 1).
    """
    tree = check_tree(tree)
    N = np.asarray(tree.weighted_n_node_samples, dtype=float)
    E = np.maximum(N * (1.0 - np.max(tree.value, axis=1)), 0.0)
    return N * pessimistic_error_rate(E, N, confidence_factor)


@implements("B.42")
def pessimistic_subtree(tree, confidence_factor=0.25):
    """Prune bottom-up by C4.5's rule (B.42), without subtree raising.

    Children before parents, the branch below t becomes a leaf when N_t U_CF(E_t, N_t) does
    not exceed the predicted errors of the leaves of the branch as already pruned. It is the
    recursion of reduced-error pruning (B.28) with the predicted errors of
    :func:`pessimistic_node_errors` in place of validation errors, and
    :func:`~prml14.trees.reduced_error.reduced_error_subtree` carries it out.

    Parameters
    ----------
    tree : prml14.trees.Tree or prml14.trees.c45_estimators.MultiwayTree
        A fitted classification tree.
    confidence_factor : float in (0, 1), default=0.25
        CF of (B.41).

    Returns
    -------
    tree : prml14.trees.Tree or prml14.trees.c45_estimators.MultiwayTree
        The pruned tree.
    predicted_errors : float
        The sum of N_τ U_CF(E_τ, N_τ) over its leaves.

    Raises
    ------
    TypeError
        If ``tree`` is not a fitted tree (for an estimator, pass its ``tree_``).
    ValueError
        If ``confidence_factor`` is not in (0, 1).
    """
    return reduced_error_subtree(tree, pessimistic_node_errors(tree, confidence_factor))
