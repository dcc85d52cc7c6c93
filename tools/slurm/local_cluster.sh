#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, in a folder of its own, for
# trying `arena run --scheduler slurm` without a real cluster (and for the
# arena's end-to-end test). No GPU: the node offers CPUs only (gres none).
#
#   tools/slurm/local_cluster.sh start DIR   # prints the SLURM_CONF to export
#   tools/slurm/local_cluster.sh stop DIR
#
# Needs Debian's slurm-wlm and munge (tools/setup.sh installs them). Every
# daemon (munged, slurmctld, slurmd) runs as the calling user, with its
# key, sockets, state and logs under DIR; nothing of the system's own
# configuration is read or changed.
set -euo pipefail
cmd="${1:?start or stop}"
dir="$(mkdir -p "${2:?folder}" && cd "$2" && pwd)"

stop() {
  for pidfile in "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munged.pid; do
    [ -f "$pidfile" ] || continue
    pid="$(cat "$pidfile" 2>/dev/null || true)"
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  done
  sleep 0.5
  for pidfile in "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munged.pid; do
    [ -f "$pidfile" ] || continue
    pid="$(cat "$pidfile" 2>/dev/null || true)"
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
    rm -f "$pidfile"
  done
}

if [ "$cmd" = stop ]; then
  stop
  exit 0
fi
[ "$cmd" = start ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
for tool in munged slurmctld slurmd sbatch squeue scontrol; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || {
    echo "local_cluster: $tool is not installed (Debian: slurm-wlm munge; tools/setup.sh)" >&2
    exit 1
  }
done
export PATH="$PATH:/usr/sbin"
user="$(id -un)"
mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
chmod 700 "$dir/munge"
# munged refuses a key others can read, and a world-writable socket folder.
[ -f "$dir/munge/munge.key" ] || head -c 1024 /dev/urandom >"$dir/munge/munge.key"
chmod 400 "$dir/munge/munge.key"
munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
  --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/seed"

# Two free TCP ports on the loopback interface.
read -r ctld_port node_port < <(python3 - <<'PY'
import socket
s = [socket.socket() for _ in range(2)]
for x in s:
    x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))
PY
)
cpus="$(nproc)"
mem_mb=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 ))
cat >"$dir/slurm.conf" <<CONF
ClusterName=arena-local
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$node_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
MinJobAge=3600
NodeName=arena-node NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=local Nodes=arena-node Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -i -f "$SLURM_CONF"
slurmd -N arena-node -f "$SLURM_CONF"
# Up once the node answers as idle.
for _ in $(seq 1 60); do
  state="$(sinfo -h -N -o '%T' 2>/dev/null | head -1 || true)"
  case "$state" in
    idle*|mixed*|allocated*) echo "SLURM_CONF=$SLURM_CONF"; exit 0 ;;
  esac
  sleep 0.5
done
echo "local_cluster: the node never came up (state '${state:-none}'); logs in $dir/log" >&2
tail -5 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
stop
exit 1
