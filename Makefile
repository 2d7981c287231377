# `make run`: set up ./.venv (once) and run the default simulation. `make test`: set up and run the tests.
VENV := .venv
STAMP := $(VENV)/.installed
CASE ?= cavity2d
OUT ?= out/$(CASE)

.PHONY: run test setup setup-phdf5 setup-cuda-lowering bench clean

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

test: $(STAMP)
	$(VENV)/bin/python -m pytest -q tests

bench: $(STAMP)
	$(VENV)/bin/distlbm bench --lattice D3Q19 --size 128 --steps 50

clean:
	rm -rf $(VENV) .venv-phdf5 .venv-cuda out
