"""One way to distribute a step: a function written for local blocks (given its halo `exchange`)
becomes a function of global arrays on any domain, and a model's step becomes the jitted
`advance(state, cells, n)` that the driver, `distlbm bench` and scripts/scaling.py all call."""

from __future__ import annotations

from typing import Callable, Optional

from distlbm.parallel.domain import Domain


def distribute(domain: Domain, factory: Callable) -> Callable:
    """factory(exchange) -> fn(local blocks ...) as a function of the domain's global arrays."""
    return domain.map(factory)


def make_advance(model, domain: Domain, step_factory: Optional[Callable] = None, jit: bool = True,
                 path: str = "auto", inplace: Optional[bool] = None, exchange: Optional[Callable] = None) -> Callable:
    """advance(state, cells, n) -> state: n steps of `model` on `domain` in one compiled loop.
    step_factory(model, exchange) -> step(f, cells, t) (default: distlbm.stepper.make_step on the
    step `path`, 'auto' | 'xla' | 'pallas'). Where the fused Pallas kernel runs and streams in place
    (stepper.fused_form: the in-place kernels cover the model; inplace overrides DISTLBM_INPLACE), the
    loop alternates its two in-place kernels on one population array (physics/fused_inplace.py).
    `exchange`: the halo exchange of every block in place of the domain's, the step otherwise the same, its form
    and kernels included (scripts/scaling.py times the step with every block its own neighbour, halo.own_planes, to
    find what the exchange costs; a step_factory of its own took the A-B kernel where the real step ran in place)."""
    from distlbm import stepper

    def own(domains):
        return domains if exchange is None else exchange

    if step_factory is None and stepper.step_path(model, path)[0] == "pallas" \
            and stepper.fused_form(inplace, model) == "in place (AA)":
        from distlbm.physics import fused_inplace

        parts = [distribute(domain, lambda ex, i=i: fused_inplace.make_fused_inplace(model, own(ex))[i])
                 for i in range(3)]
        return stepper.make_inplace_advance(*parts, jit=jit)

    def default(model, exchange):
        return stepper.make_step(model, exchange, path=path)

    factory = step_factory or default
    return stepper.make_advance(distribute(domain, lambda ex: factory(model, own(ex))), jit=jit)
