#!/usr/bin/env bash
# A throwaway single-node Slurm on this machine, for the cluster grading's
# test: munge with a key of its own, slurmctld and slurmd, everything (config,
# state, logs, sockets) in one folder, nothing of the system's touched.
#
#   source grader/tests/single_node_slurm.sh
#   slurm_start DIR      starts it; exports SLURM_CONF for sbatch, squeue, ...
#   slurm_stop           stops the daemons it started (by their ids)
#
# Needs root (slurmd starts jobs as their owner) and the packages of
# `common/deps.sh slurm`.  Ports: SLURM_TEST_PORT and the next one (default 16817).

slurm_pids=()

slurm_start() {
    local dir=$1 port=${SLURM_TEST_PORT:-16817} host cpus mem
    mkdir -p "$dir/state" "$dir/spool" "$dir/log"
    # The key: any 1024 random bytes, readable by its owner alone.
    head -c 1024 /dev/urandom > "$dir/munge.key" && chmod 600 "$dir/munge.key"
    munged --force --foreground --socket="$dir/munge.socket" --key-file="$dir/munge.key" \
        --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munged.seed" \
        > "$dir/log/munged.out" 2>&1 &
    slurm_pids+=($!)
    # The node as slurmd sees it: name, CPUs, memory.
    host=$(hostname -s)
    cpus=$(slurmd -C | sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' | head -n 1)
    mem=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' | head -n 1)
    # No cgroups, no accounting database: process tracking by /proc is
    # enough for one node, and works in a container.
    cat > "$dir/slurm.conf" <<CONF
ClusterName=kit-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=grading Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF="$dir/slurm.conf"
    local t
    for t in $(seq 50); do [ -S "$dir/munge.socket" ] && break; sleep 0.1; done
    slurmctld -D -i -f "$SLURM_CONF" > "$dir/log/slurmctld.out" 2>&1 &
    slurm_pids+=($!)
    slurmd -D -f "$SLURM_CONF" > "$dir/log/slurmd.out" 2>&1 &
    slurm_pids+=($!)
    # Up when the node is idle (the controller answers and the node registered).
    for t in $(seq 120); do
        [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && return 0
        sleep 0.5
    done
    echo "single-node Slurm: the node is not idle after 60 s: $(sinfo -h -o '%t %E' 2>&1)" >&2
    return 1
}

slurm_stop() {
    local p
    for p in "${slurm_pids[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${slurm_pids[@]}"; do wait "$p" 2>/dev/null; done
    slurm_pids=()
}
