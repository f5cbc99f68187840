#!/usr/bin/env bash
# slurm-cluster.sh start|stop DIR: a single-node Slurm cluster in DIR, for the tests of
# make grade-all BACKEND=slurm (tests/grade-all-backends.sh). start writes
# DIR/slurm.conf (this host as the only node, every core, no GRES, no accounting),
# a munge key, starts munged, slurmctld and slurmd as the current user (root in CI),
# each with its pid file in DIR, and waits until the node is idle; it prints the
# SLURM_CONF to use. stop ends the three daemons it started. Ports come from the
# shell's pid, so two clusters on one host do not meet. Needs the Debian packages
# slurmctld, slurmd, slurm-client and munge (tools/deps.sh installs them for make test).
set -u
cmd=${1:?usage: slurm-cluster.sh start|stop DIR}
dir=${2:?usage: slurm-cluster.sh start|stop DIR}
die() { echo "slurm-cluster: $*" >&2; exit 2; }

stop() {
  local p
  for p in slurmd slurmctld munged; do
    [ -f "$dir/$p.pid" ] && kill "$(cat "$dir/$p.pid")" 2> /dev/null
  done
  for p in slurmd slurmctld munged; do
    for _ in $(seq 50); do [ -f "$dir/$p.pid" ] && kill -0 "$(cat "$dir/$p.pid")" 2> /dev/null || break; sleep 0.1; done
    [ -f "$dir/$p.pid" ] && kill -9 "$(cat "$dir/$p.pid")" 2> /dev/null
    rm -f "$dir/$p.pid"
  done
  return 0
}

case $cmd in
  stop) stop; exit 0 ;;
  start) ;;
  *) die "unknown command '$cmd' (start, stop)" ;;
esac
for t in munged slurmctld slurmd sinfo sbatch; do
  command -v "$t" > /dev/null || [ -x "/usr/sbin/$t" ] || die "$t is not installed (apt-get install slurmctld slurmd slurm-client munge)"
done
PATH=$PATH:/usr/sbin
mkdir -p "$dir/state" "$dir/spool" "$dir/log" || die "cannot create $dir"
dir=$(cd "$dir" && pwd)
head -c 1024 /dev/urandom > "$dir/munge.key" && chmod 400 "$dir/munge.key"
munged --key-file="$dir/munge.key" --socket="$dir/munge.sock" --pid-file="$dir/munged.pid" \
  --log-file="$dir/log/munged.log" --seed-file="$dir/munge.seed" --force || die "munged did not start ($dir/log/munged.log)"
host=$(hostname -s)
port=$((20000 + $$ % 20000))
cat > "$dir/slurm.conf" << CONF
ClusterName=scanlab-test
SlurmctldHost=$host
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=grading Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF" || { stop; die "slurmctld did not start ($dir/log/slurmctld.log)"; }
slurmd -f "$SLURM_CONF" || { stop; die "slurmd did not start ($dir/log/slurmd.log)"; }
for _ in $(seq 100); do
  [ "$(sinfo -h -o '%t' 2> /dev/null)" = idle ] && { echo "$SLURM_CONF"; exit 0; }
  sleep 0.2
done
stop
die "the node did not become idle in 20 s: $(tail -2 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" | tr '\n' ' ')"
