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
