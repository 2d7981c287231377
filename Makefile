# `make run`: set up ./.venv (once) and run the default simulation. `make test`: set up and run the tests.
VENV := .venv
STAMP := $(VENV)/.installed
CASE ?= cavity2d
OUT ?= out/$(CASE)

.PHONY: run test test-exhaustive test-all setup setup-phdf5 setup-cuda-lowering bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml scripts/setup_venv.sh
	./scripts/setup_venv.sh
	touch $(STAMP)

# optional: ./.venv-phdf5 with h5py built against MPI (collective parallel HDF5); the tests use it when present
setup-phdf5:
	./scripts/setup_parallel_hdf5.sh

# optional: ./.venv-cuda with jax-cuda13-plugin, to check that the fused Pallas kernel lowers for CUDA (no GPU needed)
setup-cuda-lowering: $(STAMP)
	./scripts/setup_cuda_lowering.sh

run: $(STAMP)
	$(VENV)/bin/distlbm run $(CASE) --out $(OUT)

# the default tier, on every core (at most 8 test processes); tests/conftest.py says what the exhaustive
# tier holds. CI runs both.
PYTEST := $(VENV)/bin/python -m pytest -q -n auto --maxprocesses 8 --dist worksteal

test: $(STAMP)
	$(PYTEST) tests

test-exhaustive: $(STAMP)
	$(PYTEST) -m exhaustive tests

test-all: $(STAMP)
	$(PYTEST) -m "" tests

bench: $(STAMP)
	$(VENV)/bin/distlbm bench --lattice D3Q19 --size 128 --steps 20 --repeat 5  # the README's figure: median of 5 x 20 steps

clean:
	rm -rf $(VENV) .venv-phdf5 .venv-cuda out
