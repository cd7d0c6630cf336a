#!/bin/sh
# test-fetch.sh - a profile from a URL in the view: the countdown while
# the server profiles (?seconds=N), r fetching it again, b comparing the
# new fetch with the previous one, r twice stopping, a failed fetch
# keeping the profile shown, q while fetching, Ctrl-C before the view.
# The server is Python's http.server, made to wait N seconds when asked
# ?seconds=N, as a profiling service does.
BIN=${1:?usage: test-fetch.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 is not installed"
	exit 0
fi
dir=$(mktemp -d)
srv=
cleanup() { [ -n "$srv" ] && kill "$srv" 2>/dev/null; rm -rf "$dir"; tui_cleanup; }
trap cleanup EXIT
cat >"$dir/server.py" <<'EOF'
import http.server, os, sys, time, urllib.parse
root = sys.argv[1]
class H(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k):
        super().__init__(*a, directory=root, **k)
    def do_GET(self):
        q = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        time.sleep(float(q.get("seconds", ["0"])[0]))
        super().do_GET()
    def log_message(self, *a):
        pass
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write("%d\n" % s.server_port)
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
s.serve_forever()
EOF
mkdir "$dir/www"
printf 'main;first_fetch 10\nmain;common 10\n' >"$dir/www/prof.folded"
python3 "$dir/server.py" "$dir/www" "$dir/port" 2>/dev/null &
srv=$!
tui_poll test -s "$dir/port"
url="http://127.0.0.1:$(cat "$dir/port")/prof.folded?seconds=3"

tui_start -x 100 -y 24 -- "$url"
check "before the view: the seconds left" tui_wait "fetching http://[^ ]*seconds=3: [0-9] s left"
check "the view opens with the fetched profile" tui_wait "first_fetch"
check "header: the URL's name, 20 samples" tui_wait "^prof\.folded\?seconds=3 \| 20 samples|^http://.* \| 20 samples"
printf 'main;second_fetch 30\nmain;common 10\n' >"$dir/www/prof.folded"
tui_keys r
check "r: fetching again" tui_wait "fetching the profile again \(r: stop\)"
check "r: the header counts down" tui_wait "\| fetching: [1-3] s left"
check "r: the new fetch shown" tui_wait "second_fetch"
check "r: 40 samples" tui_wait "\| 40 samples"
check "r: the status says b compares" tui_wait "fetched again: b compares it with the previous fetch"
check "r: no countdown left" tui_poll sh -c "! tmux -L '$TUI_SOCK' capture-pane -p -t ft | grep -q 'fetching:'"
tui_keys b
check "b: compares with the previous fetch" tui_wait "view: compare against the baseline"
check "b: the status says so" tui_wait "this fetch against the previous one"
tui_keys B
check "B: sized by the previous fetch, which had first_fetch" tui_wait "first_fetch"
check "B: 20 samples before" tui_wait "\| 20 samples \| view: compare against the baseline, sized by before"
tui_keys B b
check "b again: this fetch alone" tui_wait "this fetch alone"
tui_keys r
tui_wait "fetching: [1-3] s left" >/dev/null
tui_keys r
check "r twice: stopped" tui_wait "fetch stopped: the profile shown stays"
printf '<html><body>maintenance</body></html>\n' >"$dir/www/prof.folded"
tui_keys r
check "not a profile: said" tui_wait "^fetch failed, the profile shown stays: http://.*: not a profile"
check "not a profile: the profile stays" tui_wait "second_fetch"
rm "$dir/www/prof.folded"
tui_keys r
check "a failed fetch: the 404 said" tui_wait "^fetch failed, the profile shown stays: http://.* 404 "
check "a failed fetch: the profile stays" tui_wait "second_fetch"
check "a failed fetch: 40 samples still" tui_wait "\| 40 samples"
printf 'main;third_fetch 5\n' >"$dir/www/prof.folded"
tui_keys r
tui_wait "fetching: [1-3] s left" >/dev/null
tui_keys q
check "q while fetching: exit 0" tui_wait "__EXIT:0" 5
check "terminal restored" tui_restored

# A pprof with several sample types, fetched twice (the same profile):
# after e, the previous fetch is compared in the new type too, so
# nothing changed.
cp tests/pprof/go-heap.pprof "$dir/www/heap.pprof"
tui_start -x 100 -y 24 -- "http://127.0.0.1:$(cat "$dir/port")/heap.pprof"
check "pprof: opens" tui_wait "e: next type"
tui_keys r
check "pprof: fetched again" tui_wait "fetched again"
tui_keys b
check "pprof: compared" tui_wait "this fetch against the previous one"
tui_keys e
check "pprof: next type" tui_wait "^sample type "
tui_keys v
check "pprof: the comparison's top table" tui_wait "self:b +self:a +change"
check "pprof, another type: the same profile, no change" tui_poll sh -c \
	"! tmux -L '$TUI_SOCK' capture-pane -p -t ft | sed 1,2d | grep -E ' [+-][0-9]| new | gone '"
tui_keys q q
check "pprof: exit 0" tui_wait "__EXIT:0"

# Ctrl-C while the first fetch counts down: flametop ends there.
tui_start -x 100 -y 24 -- "${url%=3}=8"
check "Ctrl-C: the countdown" tui_wait "fetching http://[^ ]*seconds=8: [0-9] s left"
pid=$(tui_pid)
check "Ctrl-C: flametop is running" test -n "$pid"
tui_keys C-c
# (The pane's shell gets the SIGINT too: it ends by the signal, or says
# status 130.  tmux can mark the pane dead without the status.)
gone() { ! kill -0 "$pid" 2>/dev/null && { tui_dead || tui_wait "__EXIT:130" 0; }; }
check "Ctrl-C stops the fetch within 5 s" tui_poll_for 5 gone

tui_done
