# `make tune` for a tensor-core stage's solution (GPU): the kernel at the
# block shapes of its tune_shapes.txt, and with each change in its
# experiments/, beside cuBLAS TF32, with ncu's tensor-pipe share where ncu
# is installed (common/report/tune_shapes.sh says what each column is).
# TUNE_SIZES="2048 4096" picks the sizes (default 1024, 2048 and 4096).
# The committed table is the script's own output, without make's words:
# common/report/tune_shapes.sh STAGE > reports/h200/tune-STAGE.tsv
.PHONY: tune
tune:
	@$(ROOT)/common/report/tune_shapes.sh $(LAB_NAME) $(TUNE_SIZES)
