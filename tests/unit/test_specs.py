"""config: the typed run specs are checked when they are built, with the key, the value and what was
expected; one definition gives every default."""

import dataclasses

import pytest

from distlbm.config import (COMMON_PARAMS, RUN_KEYS, SPECS, CheckpointSpec, ModelSpec, OutputSpec, RunControl,
                            resolve)
from distlbm.errors import ConfigError


def test_specs_are_frozen_and_typed():
    cfg = resolve("box", {"n": 8, "collision": "TRT", "output_every": 5.0})
    assert cfg.model.collision == "trt" and cfg.output.output_every == 5 and isinstance(cfg.output.output_every, int)
    assert cfg.model.compute_dtype == "float32" and cfg.checkpoint.checkpoint_keep == 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.model.dtype = "float64"


@pytest.mark.parametrize("spec,kwargs,message", [
    (ModelSpec, {"collision": "lbgk"}, "collision = 'lbgk': expected one of 'bgk', 'trt', 'regularized'"),
    (ModelSpec, {"dtype": "float16", "compute_dtype": "float16"}, "compute_dtype = 'float16': expected one of"),
    (ModelSpec, {"smagorinsky": -1.0}, "smagorinsky = -1.0: expected a value >= 0"),
    (ModelSpec, {"trt_lambda": float("nan")}, "trt_lambda = nan: expected a finite number"),
    (OutputSpec, {"output_fields": "rho,p"}, "output_fields = 'rho,p': expected a comma-separated list"),
    (OutputSpec, {"output_fields": "u,u"}, "'u' given more than once"),
    # an empty name between ',' (it was skipped: 'rho,,u' wrote rho and u, the name left out unsaid)
    (OutputSpec, {"output_fields": "rho,,u"}, "output_fields = 'rho,,u': item 2 of 3 between ',' is empty"),
    (OutputSpec, {"output_fields": ",u"}, "output_fields = ',u': item 1 of 2 between ',' is empty"),
    (RunControl, {"steps": 2 ** 31}, "steps = 2147483648: expected at most 2147483647"),
    (CheckpointSpec, {"checkpoint_keep": 0}, "checkpoint_keep = 0: expected a positive value"),
])
def test_a_spec_refuses_bad_values_when_built(spec, kwargs, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        spec(**kwargs)


def test_one_comma_after_the_last_field_is_harmless():
    assert OutputSpec(output_fields="rho,u,").fields == ("rho", "u")
    assert OutputSpec(output_fields=" u ").fields == ("u",)


def test_one_definition_of_every_default():
    """COMMON_PARAMS is generated from the specs: the same keys, defaults and no key twice."""
    names = [p.name for p in COMMON_PARAMS]
    assert len(names) == len(set(names))
    fields = {f.name: f.default for spec in SPECS.values() for f in dataclasses.fields(spec)}
    assert set(names) == set(fields) | {"case"}
    for p in COMMON_PARAMS:
        if p.name != "case":
            assert p.default == fields[p.name] and p.type is type(fields[p.name])
    assert "steps" in RUN_KEYS and "dtype" not in RUN_KEYS and "output_fields" in RUN_KEYS


def test_the_file_name_prefixes_a_spec_error(tmp_path):
    f = tmp_path / "run.toml"
    f.write_text('case = "box"\noutput_fields = "rho,rho"\n')
    with pytest.raises(ConfigError, match=r"run\.toml: output_fields = 'rho,rho'"):
        resolve(str(f))


def test_a_restart_of_a_run_with_an_empty_output_field_name_keeps_its_fields():
    """A run of output_fields = 'rho,,u' (accepted, the empty name skipped, before it was refused) restarted without
    output settings: the kept spec could not be built any more and the restart wrote no field at all, unsaid. It
    keeps the run's fields, the empty name left out."""
    from distlbm.driver.restart import kept_outputs

    cfg = resolve("box", {"n": 8})
    kept = kept_outputs(cfg, {"config": {"output_fields": "rho,,u", "output_every": 5}})
    assert kept is not None and kept.fields == ("rho", "u") and kept.output_every == 5
    kept = kept_outputs(cfg, {"config": {"output_fields": "u,", "output_every": 5}})  # a trailing ',' as it was
    assert kept is not None and kept.fields == ("u",)
