#!/bin/sh
# Starts three dashboards side by side on one election: etcd at $1 (default the local one).
# Close the window that says LEADER and watch another take over.
dir=$(dirname "$0")
bin=${ETCDQT_DASHBOARD:-$dir/etcdqt-election-dashboard}
endpoint=${1:-http://127.0.0.1:2379}
for i in 0 1 2; do
    "$bin" --endpoint "$endpoint" --name "dashboard-$((i + 1))" --slot "$i" &
done
wait
