#!/usr/bin/env bash
# Timeshift soak: MINUTES (default 3) of a live RTMP stream from nginx-rtmp, 720p at about
# 2 Mbit/s (ffmpeg publishing a 70 s clip in a loop), played by `reel play --headless
# --timeshift WINDOW` (default 60 s). Every second it counts, as the system does, the
# blocks of the timeshift files the player holds open (unlinked: only /proc/PID/fd shows
# them), and passes when the most it saw stays within the bound: the clip's bytes in its
# fullest WINDOW + 3 s (a segment spans at most the first keyframe 2 s on; ffprobe counts
# them, the clip taken twice for the loop's seam) and a 4 KiB block per file for rounding.
#   bash scripts/soak-timeshift.sh [MINUTES] [WINDOW_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
minutes=${1:-3}
window=${2:-60}
bash scripts/setup.sh
swift build -c release --product reel >&2
reel=$(swift build -c release --show-bin-path)/reel
cache=.cache/soak-timeshift
mkdir -p "$cache"
clip=$cache/live-720p-70s.mp4
if [ ! -s "$clip" ]; then
  ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=1280x720:rate=30:duration=70" -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=70" \
    -c:v libx264 -preset veryfast -g 30 -b:v 2M -maxrate 2M -bufsize 2M -pix_fmt yuv420p -c:a aac "$clip.part.mp4"
  mv "$clip.part.mp4" "$clip"
fi

dir=$(mktemp -d)
children=()
cleanup() { for pid in "${children[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$dir"; }
trap cleanup EXIT
port=$(( (RANDOM % 5000) * 2 + 41000 ))
source scripts/lib/nginx-rtmp.sh
start_nginx_rtmp "$dir" "$port"
url=rtmp://127.0.0.1:$port/live/soak
ffmpeg -v error -nostdin -re -stream_loop -1 -i "$clip" -c copy -f flv "$url" & children+=($!)
sleep 2
"$reel" play --headless --timeshift "${window}s" --stats "$url" >"$dir/report.json" 2>"$dir/stderr.txt" & player=$!
children+=($player)

python3 - "$clip" "$window" "$player" "$((minutes * 60))" "$dir/report.json" <<'PY'
import json, os, subprocess, sys, time
clip, window, pid, seconds, report = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "packet=pts_time,size", "-of", "csv=p=0", clip],
                       capture_output=True, text=True, check=True).stdout.split()
packets = sorted((float(t), int(s)) for t, s in (line.split(",")[:2] for line in probe if line.count(",") >= 1 and line.split(",")[0] not in ("", "N/A")))
length = packets[-1][0] + 0.04
twice = packets + [(t + length, s) for t, s in packets]
most, total, first = 0, 0, 0
for time_, size in twice:
    total += size
    while twice[first][0] < time_ - (window + 3):
        total -= twice[first][1]; first += 1
    most = max(most, total)

def open_timeshift_bytes():
    total, files = 0, 0
    fds = f"/proc/{pid}/fd"
    for name in os.listdir(fds):
        try:
            if "reel-timeshift-" in os.readlink(f"{fds}/{name}"):
                total += os.stat(f"{fds}/{name}").st_blocks * 512; files += 1
        except OSError:
            pass
    return total, files

seen, seen_files, start = 0, 0, time.time()
while time.time() - start < seconds:
    time.sleep(1)
    if not os.path.exists(f"/proc/{pid}"):
        sys.exit(f"soak-timeshift: the player ended early")
    used, files = open_timeshift_bytes()
    seen, seen_files = max(seen, used), max(seen_files, files)
bound = most + 4096 * max(seen_files, 1)
subprocess.run(["kill", "-INT", str(pid)])
for _ in range(100):
    if not os.path.exists(f"/proc/{pid}"): break
    time.sleep(0.1)
statistics = json.load(open(report)).get("statistics", {})
print(f"soak-timeshift: {seconds / 60:.0f} min, window {window:.0f} s: at most {seen / 1e6:.1f} MB on disk in {seen_files} files; "
      f"bound {bound / 1e6:.1f} MB (the clip's fullest {window + 3:.0f} s); kept {statistics.get('timeshift_seconds', 0):.1f} s at the end, "
      f"{statistics.get('frames_shown', 0)} pictures shown, {statistics.get('frames_dropped', 0)} dropped")
sys.exit(0 if 0 < seen <= bound else 1)
PY
