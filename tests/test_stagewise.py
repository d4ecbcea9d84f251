"""Refusals of the stagewise and second-order core functions (pages B.1 and B.5): the errors
name the bad argument instead of broadcasting or overflowing."""

import numpy as np
import pytest

from prml14 import (
    make_loss,
    prune_by_gain,
    regularised_objective,
    second_order_objective,
    stagewise_step,
    stagewise_update,
)


@pytest.mark.equation("B.1", "B.2")
def test_stagewise_step_and_update_check_shapes():
    loss = make_loss("squared_error")
    t, F = np.array([1.0, -1.0, 0.5]), np.zeros(3)
    with pytest.raises(ValueError, match="candidates must have shape"):
        stagewise_step(loss, t, F, np.ones((4, 2)))
    with pytest.raises(ValueError, match="candidates must not contain"):
        stagewise_step(loss, t, F, np.array([[1.0], [np.inf], [1.0]]))
    with pytest.raises(ValueError, match="F must have shape"):
        stagewise_step(loss, t, F[:, None, None], np.ones((3, 2)))
    # a step broadcasts to F, not the other way round
    np.testing.assert_array_equal(stagewise_update(F, 2.0, 0.5), np.ones(3))
    with pytest.raises(ValueError, match="step must broadcast to the shape of F"):
        stagewise_update(F, np.ones(4))
    with pytest.raises(ValueError, match="step must broadcast to the shape of F"):
        stagewise_update(F[:1], np.ones(3))


@pytest.mark.equation("B.18", "B.19", "B.21")
def test_second_order_objectives_refuse_bad_values():
    with pytest.raises(ValueError, match="leaf_values must not contain"):
        regularised_objective(1.0, [np.array([1.0, np.nan])])
    with pytest.raises(ValueError, match="rescale leaf_values"):
        regularised_objective(1.0, [np.array([1e300])], reg_lambda=1.0)
    with pytest.raises(ValueError, match="loss_sum"):
        regularised_objective(np.nan, [np.ones(2)])
    with pytest.raises(ValueError, match="H must be non-negative"):
        second_order_objective([1.0, 2.0], [1.0, -1.0], [0.5, 0.5])
    with pytest.raises(ValueError, match="v must have shape"):
        second_order_objective([1.0, 2.0], [1.0, 1.0], [0.5, 0.5, 0.5])
    with pytest.raises(ValueError, match="gamma"):
        prune_by_gain(None, -1.0)


@pytest.mark.equation("B.18", "B.19")
@pytest.mark.parametrize("reg_lambda, gamma", [(0.0, 0.0), (1.5, 0.3)])
def test_second_order_objective_is_exact_for_the_squared_error(reg_lambda, gamma):
    # For L(F) = Σ(t − F)², moving the points of leaf τ by v_τ changes L by exactly
    # G_τ v_τ + ½ H_τ v_τ² (G_τ = Σ 2(F − t), H_τ = 2 n_τ): (B.19) plus the loss at F must be
    # the regularised objective (B.18) of the moved scores, an independent computation.
    rng = np.random.default_rng(0)
    t, F = rng.normal(size=30), rng.normal(size=30)
    leaf = rng.integers(0, 4, size=30)
    v = rng.normal(size=4)
    G = np.bincount(leaf, 2 * (F - t), minlength=4)
    H = np.bincount(leaf, np.full(30, 2.0), minlength=4)
    moved = np.sum((t - F - v[leaf]) ** 2)
    expected = regularised_objective(moved, [v], reg_lambda, gamma)
    got = np.sum((t - F) ** 2) + second_order_objective(G, H, v, reg_lambda, gamma)
    assert got == pytest.approx(expected, rel=1e-12)
