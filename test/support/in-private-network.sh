#!/bin/sh
# Runs a server that binds every interface inside a private network namespace (only loopback
# exists there), waits for its port, then runs the checker against it; the server is stopped.
# Usage (under `unshare -rn`): in-private-network.sh PORT CLI SERVER-ARGS... -- CHECKER-ARGS...
port=$1; cli=$2; shift 2
ip link set lo up 2>/dev/null
server=""
while [ "$1" != "--" ]; do server="$server '$1'"; shift; done
shift
# exec: the background job becomes the node server itself, so $! is the server's pid (not a
# subshell whose death would leave the server running).
eval "PORT=$port exec node $server" >/dev/null 2>&1 &
pid=$!
trap 'kill -9 $pid 2>/dev/null' EXIT
i=0
until node -e "require('net').connect($port,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))"; do
  i=$((i+1)); [ $i -gt 100 ] && { echo "server did not listen" >&2; exit 99; }; sleep 0.1
done
node "$cli" "$@"
code=$?
kill $pid
wait $pid 2>/dev/null
exit $code
