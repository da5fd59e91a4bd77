# What a report label multiplies in, for the tables and figures that set it
# beside cuBLAS: a tensor-core stage (TF32 inputs) beside cuBLAS TF32, and
# against no FP32 peak; every other stage beside cuBLAS FP32.  The stages
# are those common/harness.c's lab_stage_precision names; a label is a
# stage or a variant of one ("09-tensor-cores+unrounded").
#
#   . common/report/precision.sh; tf32_label LABEL && ...

tf32_label() {
    case "$1" in
        09-tensor-cores | 09-tensor-cores+* | 10-mma-sync | 10-mma-sync+*) return 0 ;;
        *) return 1 ;;
    esac
}

# cublas_reference LABEL: the cuBLAS row of timings.tsv a label is measured against.
cublas_reference() { if tf32_label "$1"; then echo cublas-tf32; else echo cublas-fp32; fi; }

# cublas_reference_name LABEL: the same, as the tables write it.
cublas_reference_name() { if tf32_label "$1"; then echo "cuBLAS TF32"; else echo "cuBLAS FP32"; fi; }
