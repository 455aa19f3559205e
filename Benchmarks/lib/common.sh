# Shared helpers for the benchmark scripts: nginx as the reference server, wrk runs, medians.
# Source it; it needs ROOT (the app's package root) set.

# The app is built in its own package, the benchmark executables in Benchmarks/ (a package of its
# own, so the app's build never compiles them).
WISHLIST="$ROOT/.build/release/wishlist"
BENCH_BIN="$ROOT/Benchmarks/.build/release"

# release_build DIR [swift build options...]: a quiet release build of the package in DIR.
release_build() {
    (cd "$1" && swift build -c release "${@:2}" 2>&1 | grep -E "error|warning: unre|Compiling|Build" | tail -3)
}
build_wishlist() { release_build "$ROOT" --product wishlist; }
# bench_build PRODUCT: one benchmark executable, then at $BENCH_BIN/PRODUCT.
bench_build() { release_build "$ROOT/Benchmarks" --product "$1"; }

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

wait_for_port() {
    local port=$1
    for _ in $(seq 1 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
        sleep 0.05
    done
    echo "nothing listening on port $port" >&2
    return 1
}

# csrf_token BASE COOKIES: waits until the app at BASE answers its first page (up to two minutes:
# a large data set opens slowly), then prints the CSRF token of the cookies it saved in COOKIES.
csrf_token() {
    for _ in $(seq 1 600); do curl -fsS -o /dev/null "$1/" 2>/dev/null && break; sleep 0.2; done
    curl -fsS -c "$2" -o /dev/null "$1/"
    awk '$6 == "csrf_token" {print $7}' "$2"
}

# start_nginx DIR PORT WORKERS [DIRECTIVES] [SERVER_DIRECTIVES]: serves DIR as static files, with
# extra http-level DIRECTIVES (e.g. "gzip on;") and server-level ones; sets NGINX_PID.
start_nginx() {
    local dir=$1 port=$2 workers=${3:-1} directives=${4:-} server_directives=${5:-}
    local conf
    conf=$(mktemp -d)
    # Started as root, nginx would serve as "nobody" and get 403s from a mode-700 mktemp folder.
    cat >"$conf/nginx.conf" <<NGINX
$( [[ $(id -u) == 0 ]] && echo "user root;" )
worker_processes $workers;
daemon off;
error_log $conf/error.log;
pid $conf/nginx.pid;
events { worker_connections 4096; use epoll; }
http {
    access_log off;
    include /etc/nginx/mime.types;
    sendfile on; tcp_nopush on; keepalive_requests 1000000;
    $directives
    server { listen 127.0.0.1:$port; root $dir; $server_directives }
}
NGINX
    nginx -c "$conf/nginx.conf" -p "$conf" &
    NGINX_PID=$!
    wait_for_port "$port"
}

# Fails the awk step (and so the script, under pipefail) when wrk saw non-2xx/3xx answers: a
# fast 403 must never pass for a measurement. Socket errors (timeouts) are reported only.
wrk_errors='/Socket errors/ { print "wrk: " $0 > "/dev/stderr" }
    /Non-2xx/ { print "wrk: " $0 > "/dev/stderr"; failed = 1 } END { if (failed) exit 1 }'

# wrk_rps URL [connections] [seconds] [wrk options...]: prints requests/s.
wrk_rps() {
    local url=$1 connections=${2:-64} seconds=${3:-5}
    wrk -t2 -c"$connections" -d"${seconds}s" "${@:4}" "$url" | awk "$wrk_errors"'/Requests\/sec/ {print $2}'
}

# wrk_latency URL connections seconds: prints "rps p50ms p99ms".
wrk_latency() {
    local url=$1 connections=$2 seconds=$3
    wrk -t2 -c"$connections" -d"${seconds}s" --latency "$url" | awk "$wrk_errors"'
        /Requests\/sec/ {rps=$2}
        /^ +50%/ {p50=$2} /^ +99%/ {p99=$2}
        function ms(v) { if (v ~ /us$/) return v/1000; if (v ~ /ms$/) return v+0; if (v ~ /s$/) return v*1000; return v }
        END {printf "%s %.2f %.2f\n", rps, ms(p50), ms(p99)}'
}

# nginx's answer to commits.lua's check-off POSTs, for the reference run: the app's redirect,
# nothing written. Both servers then face the same client, whose script costs wrk CPU time
# that, on two shared cores, the server does not get.
nginx_check_off='location /activities/ { return 303 /; }'

# commit_mix_reads BASE PAGE CSRF_TOKEN ACTIVITIES SECONDS: page reads/s of BASE with a check-off
# POSTed every 20th request (Benchmarks/lib/commits.lua, 64 connections).
commit_mix_reads() {
    PAGE=$2 COMMIT_EVERY=20 CSRF_TOKEN=$3 ORIGIN=$1 ACTIVITIES=$4 \
        wrk_rps "$1/" 64 "$5" -s "$ROOT/Benchmarks/lib/commits.lua" | awk '{ printf "%.0f", $1 * 19 / 20 }'
}

# divide A B: A / B to two decimals, for ratios.
divide() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

median() {
    sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'
}
