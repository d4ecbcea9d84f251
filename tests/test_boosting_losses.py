"""Refusals of the public loss functions of gradient boosting (page B.4): the errors name the
bad argument instead of broadcasting, overflowing or reading out of bounds."""

import numpy as np
import pytest

from prml14 import (
    huber_delta,
    leaf_line_search,
    line_search,
    make_loss,
    pseudo_residuals,
    weighted_quantile,
)


@pytest.mark.equation("B.17")
def test_weighted_quantile_and_huber_delta_check_their_arguments():
    v, w = np.array([3.0, 1.0, 2.0]), np.ones(3)
    assert weighted_quantile(v, w, 0.5)[0] == 2.0
    with pytest.raises(ValueError, match="weights must be non-negative"):
        weighted_quantile(v, [1.0, -1.0, 1.0], 0.5)
    with pytest.raises(ValueError, match="weights must have shape"):
        weighted_quantile(v, np.ones(4), 0.5)
    with pytest.raises(ValueError, match="values must not be empty"):
        weighted_quantile([], [], 0.5)
    with pytest.raises(ValueError, match="groups must hold integer ids"):
        weighted_quantile(v, w, 0.5, groups=[0, 1, 2], n_groups=2)
    with pytest.raises(TypeError, match="q"):
        weighted_quantile(v, w, "bogus")
    with pytest.raises(ValueError, match="alpha"):
        huber_delta(v, w, 1.0)
    with pytest.raises(ValueError, match="sample_weight must have shape"):
        huber_delta(v, np.ones(2), 0.9)


def test_make_loss_checks_the_number_of_classes_and_alpha():
    """Before: n_classes = -1, 1 or "bogus" gave a multinomial loss, alpha="x" a TypeError
    from a comparison that named no argument."""
    for bad in (-1, 1):
        with pytest.raises(ValueError, match="n_classes"):
            make_loss("log_loss", n_classes=bad)
    with pytest.raises(TypeError, match="n_classes"):
        make_loss("log_loss", n_classes="bogus")
    with pytest.raises(TypeError, match="alpha"):
        make_loss("huber", alpha="x")
    assert make_loss("log_loss", n_classes=np.int64(3)).n_outputs == 3


@pytest.mark.equation("B.14", "B.15", "B.16")
def test_loss_functions_refuse_mismatched_shapes_and_overflow():
    loss = make_loss("squared_error")
    t, F = np.array([1.0, -1.0, 0.5]), np.zeros(3)
    with pytest.raises(ValueError, match="F must have shape"):
        pseudo_residuals(loss, t, np.zeros(4))
    with pytest.raises(ValueError, match=r"F must have shape \(n_samples, 3\)"):
        pseudo_residuals(make_loss("log_loss", n_classes=3), [0, 1, 2], np.zeros(3))
    # the squared error of 1e300 overflows: refused with the advice to rescale
    with pytest.raises(ValueError, match="rescale t"):
        line_search(loss, t * 1e300, F, np.ones(3))
    with pytest.raises(ValueError, match="h must not contain"):
        line_search(loss, t, F, [1.0, np.inf, 1.0])
    with pytest.raises(ValueError, match="sample_weight must have a positive sum"):
        line_search(loss, t, F, np.ones(3), np.zeros(3))
    # leaf ids must be integers below n_nodes
    with pytest.raises(ValueError, match="leaf must hold integer ids in 0, ..., 1"):
        leaf_line_search(loss, t, F, [0, 1, 2], 2)
    with pytest.raises(TypeError, match="n_nodes"):
        leaf_line_search(loss, t, F, [0, 1, 1], 2.5)
    np.testing.assert_allclose(leaf_line_search(loss, t, F, [0, 1, 1], 2), [1.0, -0.25])
