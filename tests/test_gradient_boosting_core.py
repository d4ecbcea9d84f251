"""The core of gradient boosting: losses, pseudo-residuals, line searches, the stagewise step
and the second-order objective (pages B.1, B.4, B.5), against finite differences, brute force
and closed forms."""

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from prml14 import (
    huber_delta,
    huber_loss,
    huber_loss_gradient,
    l2_residuals,
    leaf_line_search,
    line_search,
    make_loss,
    multinomial_log_loss,
    multinomial_log_loss_gradient,
    multinomial_log_loss_hessian,
    prune_by_gain,
    pseudo_residuals,
    regularised_objective,
    second_order_objective,
    stagewise_step,
    stagewise_update,
    weighted_quantile,
)
from prml14.trees import (
    SecondOrder,
    grow_tree,
    pruning_costs,
    second_order_leaf_value,
    second_order_split_gain,
)

ALL_LOSSES = [
    ("squared_error", 2),
    ("absolute_error", 2),
    ("huber", 2),
    ("log_loss", 2),
    ("log_loss", 3),
    ("exponential", 2),
]


def _targets(name, K, n, rng):
    if name in ("squared_error", "absolute_error", "huber"):
        return rng.normal(size=n) * 2
    return rng.integers(0, K, n).astype(float)


@pytest.mark.equation("B.14")
@pytest.mark.parametrize(("name", "K"), ALL_LOSSES)
def test_pseudo_residuals_are_the_negative_gradient(name, K):
    rng = np.random.default_rng(0)
    loss = make_loss(name, n_classes=K)
    t = _targets(name, K, 40, rng)
    F = rng.normal(size=(40, loss.n_outputs))
    w = np.ones(40)
    r = pseudo_residuals(loss, t, F)
    eps = 1e-6
    for k in range(loss.n_outputs):
        E = np.zeros_like(F)
        E[:, k] = eps
        if name == "huber":  # δ held at this round's value
            delta = huber_delta(t - F[:, 0], w, loss.alpha)
            up = loss.pointwise(t, F + E, delta)
            down = loss.pointwise(t, F - E, delta)
        else:
            up, down = loss.pointwise(t, F + E), loss.pointwise(t, F - E)
        np.testing.assert_allclose(r[:, k], -(up - down) / (2 * eps), atol=1e-6)


@pytest.mark.equation("B.14")
@pytest.mark.parametrize(
    ("name", "K"), [c for c in ALL_LOSSES if c[0] not in ("absolute_error", "huber")]
)
def test_hessians_are_second_derivatives(name, K):
    rng = np.random.default_rng(1)
    loss = make_loss(name, n_classes=K)
    t = _targets(name, K, 30, rng)
    F = rng.normal(size=(30, loss.n_outputs))
    w = np.ones(30)
    h = loss.hessian(t, F, w)
    eps = 1e-5
    for k in range(loss.n_outputs):
        E = np.zeros_like(F)
        E[:, k] = eps
        fd = (loss.gradient(t, F + E, w)[:, k] - loss.gradient(t, F - E, w)[:, k]) / (2 * eps)
        np.testing.assert_allclose(h[:, k], fd, rtol=1e-6, atol=1e-9)


def test_loss_functions_appended_to_losses_module():
    rng = np.random.default_rng(2)
    r = rng.normal(size=50) * 3
    eps = 1e-6
    fd = (huber_loss(r + eps, 1.5) - huber_loss(r - eps, 1.5)) / (2 * eps)
    np.testing.assert_allclose(huber_loss_gradient(r, 1.5), fd, atol=1e-6)
    assert np.all(huber_loss(r, 1e9) == 0.5 * r * r)
    T = np.eye(3)[rng.integers(0, 3, 20)]
    F = rng.normal(size=(20, 3))
    G = multinomial_log_loss_gradient(T, F)
    for k in range(3):
        E = np.zeros_like(F)
        E[:, k] = eps
        fd = (multinomial_log_loss(T, F + E) - multinomial_log_loss(T, F - E)) / (2 * eps)
        np.testing.assert_allclose(G[:, k], fd, atol=1e-6)
        fd2 = (
            multinomial_log_loss_gradient(T, F + E)[:, k]
            - multinomial_log_loss_gradient(T, F - E)[:, k]
        ) / (2 * eps)
        np.testing.assert_allclose(multinomial_log_loss_hessian(T, F)[:, k], fd2, atol=1e-6)
    with pytest.raises(ValueError, match="delta"):
        huber_loss(r, 0.0)
    with pytest.raises(ValueError, match="T and F"):
        multinomial_log_loss(T, F[:, :2])


@pytest.mark.equation("B.17")
def test_huber_delta_is_the_weighted_quantile_of_absolute_residuals():
    rng = np.random.default_rng(3)
    r = rng.normal(size=101)
    assert huber_delta(r, np.ones(101), 0.9) == np.quantile(np.abs(r), 0.9, method="inverted_cdf")
    # integer weights are repetitions
    w = rng.integers(1, 4, 101)
    assert huber_delta(r, w.astype(float), 0.7) == np.quantile(
        np.repeat(np.abs(r), w), 0.7, method="inverted_cdf"
    )


def test_weighted_quantile_per_group():
    rng = np.random.default_rng(4)
    v, g = rng.normal(size=60), rng.integers(0, 4, 60)
    out = weighted_quantile(v, np.ones(60), 0.5, g, 5)
    for j in range(4):
        assert out[j] == np.quantile(v[g == j], 0.5, method="inverted_cdf")
    assert out[4] == 0.0  # an empty group


@pytest.mark.equation("B.15")
def test_line_search_is_the_least_squares_step_for_squared_error():
    rng = np.random.default_rng(5)
    t, F, h = rng.normal(size=(3, 50))
    rho = line_search(make_loss("squared_error"), t, F, h)
    assert rho == pytest.approx(np.dot(t - F, h) / np.dot(h, h), rel=1e-7)


@pytest.mark.equation("B.15")
def test_line_search_minimises_the_log_loss_along_the_direction():
    rng = np.random.default_rng(6)
    t = rng.integers(0, 2, 80).astype(float)
    F, h = rng.normal(size=(2, 80))
    loss = make_loss("log_loss")
    rho = line_search(loss, t, F, h)
    grid = np.linspace(rho - 0.5, rho + 0.5, 1001)
    values = [loss(t, (F + g * h)[:, None], np.ones(80)) for g in grid]
    assert abs(grid[np.argmin(values)] - rho) < 1.1e-3


@pytest.mark.equation("B.16")
@pytest.mark.parametrize("name", ["squared_error", "absolute_error", "huber"])
def test_leaf_line_search_minimises_each_leaf_exactly_or_by_one_step(name):
    rng = np.random.default_rng(7)
    t = rng.normal(size=60) * 3
    F = rng.normal(size=60)
    leaf = rng.integers(0, 3, 60)
    w = rng.uniform(0.5, 2, 60)
    loss = make_loss(name)
    gamma = leaf_line_search(loss, t, F, leaf, 3, w)
    r = t - F
    for j in range(3):
        m = leaf == j
        if name == "squared_error":
            assert gamma[j] == pytest.approx(np.average(r[m], weights=w[m]))
        elif name == "absolute_error":  # a weighted median: no value does better
            best = min(np.sum(w[m] * np.abs(r[m] - c)) for c in r[m])
            assert np.sum(w[m] * np.abs(r[m] - gamma[j])) == pytest.approx(best)
        else:  # Friedman's step: the median plus the mean clipped deviation
            delta = huber_delta(r, w, 0.9)
            med = weighted_quantile(r[m], w[m], 0.5)[0]
            step = np.average(np.clip(r[m] - med, -delta, delta), weights=w[m])
            assert gamma[j] == pytest.approx(med + step)


@pytest.mark.equation("B.16")
@pytest.mark.parametrize(("name", "K"), [("log_loss", 2), ("log_loss", 3), ("exponential", 2)])
def test_leaf_line_search_is_one_newton_step_for_the_classification_losses(name, K):
    rng = np.random.default_rng(8)
    loss = make_loss(name, n_classes=K)
    t = rng.integers(0, K, 50).astype(float)
    F = rng.normal(size=(50, loss.n_outputs))
    leaf = rng.integers(0, 2, 50)
    w = np.ones(50)
    g, h = loss.gradient(t, F, w), loss.hessian(t, F, w)
    factor = (K - 1) / K if K > 2 else 1.0
    for k in range(loss.n_outputs):
        gamma = leaf_line_search(loss, t, F, leaf, 2, w, k=k)
        for j in range(2):
            m = leaf == j
            assert gamma[j] == pytest.approx(-factor * g[m, k].sum() / h[m, k].sum())


@pytest.mark.equation("B.1")
def test_stagewise_step_picks_the_best_candidate_by_brute_force():
    rng = np.random.default_rng(9)
    t, F = rng.normal(size=(2, 40))
    B = np.sign(rng.normal(size=(40, 6)))
    loss = make_loss("squared_error")
    j, beta = stagewise_step(loss, t, F, B)
    # least squares per candidate, in closed form
    betas = B.T @ (t - F) / np.sum(B * B, axis=0)
    errors = [np.sum((t - F - b * B[:, i]) ** 2) for i, b in enumerate(betas)]
    assert j == int(np.argmin(errors))
    assert beta == pytest.approx(betas[j], rel=1e-7)


@pytest.mark.equation("B.2")
def test_stagewise_update_shrinks_the_step():
    F, step = np.array([1.0, 2.0]), np.array([4.0, -2.0])
    np.testing.assert_array_equal(stagewise_update(F, step, 0.25), [2.0, 1.5])
    with pytest.raises(ValueError, match="learning_rate"):
        stagewise_update(F, step, 0.0)


@pytest.mark.equation("B.3")
def test_l2_residuals_are_the_pseudo_residuals_of_the_squared_error():
    rng = np.random.default_rng(10)
    t, F = rng.normal(size=(2, 30))
    np.testing.assert_allclose(
        l2_residuals(t, F), pseudo_residuals(make_loss("squared_error"), t, F)[:, 0]
    )
    with pytest.raises(ValueError, match="same shape"):
        l2_residuals(t, F[:3])


@pytest.mark.equation("B.18")
def test_regularised_objective_adds_gamma_per_leaf_and_half_lambda_squares():
    value = regularised_objective(10.0, [np.array([1.0, -2.0]), np.array([3.0])], 2.0, 0.5)
    assert value == 10.0 + 0.5 * 3 + 0.5 * 2.0 * (1 + 4 + 9)


@pytest.mark.equation("B.19", "B.20")
def test_leaf_value_minimises_the_second_order_objective():
    rng = np.random.default_rng(11)
    G, H = rng.normal(size=4), rng.uniform(0.5, 3, 4)
    lam, gam = 0.7, 0.3
    v = second_order_leaf_value(G, H, lam)
    for j in range(4):  # one leaf at a time, numerically
        res = minimize_scalar(lambda x, j=j: G[j] * x + 0.5 * (H[j] + lam) * x * x)
        assert v[j] == pytest.approx(res.x, rel=1e-6)
    # at the optimum the objective is −½ Σ G²/(H + λ) + γ T
    assert second_order_objective(G, H, v, lam, gam) == pytest.approx(
        -0.5 * np.sum(G**2 / (H + lam)) + gam * 4
    )


@pytest.mark.equation("B.19")
def test_second_order_objective_is_the_taylor_expansion_of_the_log_loss():
    rng = np.random.default_rng(12)
    loss = make_loss("log_loss")
    t = rng.integers(0, 2, 30).astype(float)
    F = rng.normal(size=(30, 1))
    leaf = rng.integers(0, 3, 30)
    w = np.ones(30)
    g, h = loss.gradient(t, F, w)[:, 0], loss.hessian(t, F, w)[:, 0]
    G, H = np.bincount(leaf, g, 3), np.bincount(leaf, h, 3)
    v = rng.normal(size=3)
    for s in [1e-1, 1e-2]:  # the error of the expansion is of third order in the step
        exact = np.sum(loss.pointwise(t, F + s * v[leaf][:, None]) - loss.pointwise(t, F))
        approx = second_order_objective(G, H, s * v)
        assert abs(exact - approx) < 0.1 * s**3 * np.sum(np.abs(v[leaf]) ** 3)


@pytest.mark.equation("B.21")
def test_split_gain_equals_brute_force_on_tiny_data():
    rng = np.random.default_rng(13)
    x = rng.permutation(8).astype(float)[:, None]
    g, h = rng.normal(size=8), rng.uniform(0.2, 1, 8)
    lam = 0.5
    tree = grow_tree(x, SecondOrder(lam).statistics(g, h), SecondOrder(lam), max_depth=1)
    # every cut of the sorted points, by hand
    order = np.argsort(x[:, 0])
    gains = []
    for c in range(1, 8):
        L, R = order[:c], order[c:]
        gains.append(second_order_split_gain(g[L].sum(), h[L].sum(), g[R].sum(), h[R].sum(), lam))
    best = int(np.argmax(gains))
    assert tree.threshold[0] == pytest.approx(best + 0.5)
    costs = pruning_costs(tree)
    assert costs[0] - costs[1] - costs[2] == pytest.approx(gains[best])
    np.testing.assert_allclose(
        tree.value[1:, 0],
        second_order_leaf_value(
            [g[order[: best + 1]].sum(), g[order[best + 1 :]].sum()],
            [h[order[: best + 1]].sum(), h[order[best + 1 :]].sum()],
            lam,
        ),
    )


@pytest.mark.equation("B.21")
def test_prune_by_gain_removes_exactly_the_weak_cuts_bottom_up():
    rng = np.random.default_rng(14)
    X = rng.normal(size=(200, 3))
    g = -2.0 * (X[:, 0] > 0) + rng.normal(size=200) * 0.5
    crit = SecondOrder(1.0)
    tree = grow_tree(X, crit.statistics(g, np.ones(200)), crit, max_depth=4)
    costs = pruning_costs(tree)
    inner = np.flatnonzero(~tree.is_leaf)
    gains = costs[inner] - costs[tree.children_left[inner]] - costs[tree.children_right[inner]]
    gamma = float(np.median(gains))
    pruned = prune_by_gain(tree, gamma)
    assert 1 < pruned.node_count < tree.node_count
    gain = dict(zip(inner, gains, strict=True))

    def size(node):  # the reference: recursion, children first
        if tree.is_leaf[node]:
            return 1
        left, right = size(tree.children_left[node]), size(tree.children_right[node])
        if left == right == 1 and gain[node] < gamma:
            return 1
        return 1 + left + right

    assert pruned.node_count == size(0)
    assert prune_by_gain(tree, 0.0) is tree
