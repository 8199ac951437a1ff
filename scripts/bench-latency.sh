#!/usr/bin/env bash
# Glass-to-glass latency, protocol by protocol, on one ruler. `reel encode --camera
# 1280x720@30 --timecode` (2 Mbit/s, a keyframe a second, no B-frames) publishes; each
# viewer watches from a fresh publisher for SECONDS (default 10) after a 3 s warm-up:
# - Reel on the clock: `reel play --measure-latency --latency 0`, what a viewer sees (the
#   absolute targets apply here);
# - Reel through the pipe: `reel play --untimed --latency 0 --tap y4m:/dev/stdout | reel
#   latency`, each picture as decoded through the same y4m pipe and reader as the peers:
#   the row "as fast as the peers" is judged on;
# - ffmpeg (`-fflags nobuffer -flags low_delay`), and ffmpeg at its lowest (also
#   `-max_delay 0`, and `-reorder_queue_size 0` where RTP is read), y4m into `reel latency`;
# - GStreamer, a pipeline writing y4m into `reel latency`.
# Every viewer is measured RUNS times (default 3), the order of viewers turning by one each
# run; the table gives the median p50 / p95 in milliseconds and the pictures read,
# unreadable and dropped (never came: gaps in the capture times) over all runs.
# Servers on loopback:
# nginx-rtmp (RTMP in, HLS out), gst-rtsp-server relaying the camera's RTP (depayloaded and
# payloaded again: its own few milliseconds are in the RTSP rows), SRT listener.
# Control rows carry the SRT row's MPEG-TS over plain UDP: `ts` as sent, and `ts+20ms`
# through a delay line that holds each datagram 20 ms, SRT's latency without SRT (in Python;
# `ts+20ms-c` through the same line in C, which shows what the Python line itself costs).
# The webrtc row: aiortc (the tests' WHEP server, from the project's Python) relays the
# camera's MPEG-TS over UDP as WebRTC, and Reel plays its WHEP endpoint; ffmpeg cannot play
# WebRTC and GStreamer 1.22 has no WHEP client, so those cells stay empty.
# Camera and players share this machine's cores, so a fixed delay can cost more than itself
# (it moves the player's decoding onto the camera's next encode); SRT is compared with
# `ts+20ms`.
#   bash scripts/bench-latency.sh            # all rows
#   ROWS="rtp srt" RUNS=5 bash scripts/bench-latency.sh
source "$(dirname "$0")/lib/bench-common.sh"
measure=${SECONDS_PER_ROW:-10}
runs=${RUNS:-3}
warmup=3
rows=${ROWS:-rtp rtsp-udp rtsp-tcp srt ts ts+20ms ts+20ms-c rtmp hls webrtc}
reel=$PWD/.build/release/reel
dir=$(mktemp -d)
children=()
cleanup() { for pid in "${children[@]}" ${camera_pid:-} ${row_child:-}; do kill "$pid" 2>/dev/null || true; done; rm -rf "$dir"; }
trap cleanup EXIT
port=$(( (RANDOM % 5000) * 2 + 40000 ))
# Without direct rendering: y4menc writes a decoder's padded buffers whole (GStreamer 1.22).
decode="avdec_h264 direct-rendering=false ! videoconvert ! video/x-raw,format=I420 ! y4menc ! fdsink"

# nginx: RTMP in, HLS of 1 s fragments out over HTTP.
mkdir -p "$dir/hls"
source scripts/lib/nginx-rtmp.sh
start_nginx_rtmp "$dir" "$port" "hls on; hls_path $dir/hls; hls_fragment 1s; hls_playlist_length 4s;" \
  "http { access_log off; server { listen 127.0.0.1:$((port + 1)); location /hls/ { alias $dir/hls/; types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; } add_header Cache-Control no-cache; } } }"

# A fresh camera for one measurement: publish ARGS... in the background.
camera_pid=
start_camera() {
  "$reel" encode --camera 1280x720@30 --timecode --realtime --bitrate 2M --gop 30 "$@" 2>/dev/null & camera_pid=$!
  sleep "${CAMERA_LEAD:-1}"
}
stop_camera() { kill "$camera_pid" 2>/dev/null || true; wait "$camera_pid" 2>/dev/null || true; sleep 0.5; }

# "p50 p95 pictures unreadable dropped" (milliseconds, counts) from a LatencySummary's
# JSON on standard input, or "- - 0 0 0".
figures() { python3 -c '
import json, sys
try:
    s = json.load(sys.stdin); s = s.get("statistics", {}).get("glass_to_glass", s)
    print("%.1f %.1f %d %d %d" % (s["p50"] * 1000, s["p95"] * 1000, s["pictures"], s["unreadable"], s.get("dropped", 0)))
except Exception:
    print("- - 0 0 0")'; }

reel_row() {  # URL [reel play options...]
  local url=$1; shift
  # --duration: as many seconds counted as the pipe rows count (`reel latency --duration`).
  { timeout -s INT $((warmup + measure + 12)) "$reel" play --headless --stats --measure-latency --latency 0 --latency-warmup $warmup \
      --duration $((warmup + measure)) "$@" "$url" 2>/dev/null || true; } | figures
}
pipe_row() {  # COMMAND writing y4m
  { timeout -s INT $((warmup + measure + 12)) bash -c "$1 2>/dev/null | '$reel' latency --warmup $warmup --duration $((warmup + measure))" 2>/dev/null || true; } | figures
}
ffmpeg_in="ffmpeg -v error -nostdin -fflags nobuffer -flags low_delay"
ffmpeg_lowest="$ffmpeg_in -max_delay 0"
# Reel's pictures as decoded, through the pipe the peers write to.
reel_pipe() { printf "%q " "$reel" play --headless --untimed --latency 0 --tap y4m:/dev/stdout "$@"; }

# gst-rtsp-server relaying the camera's RTP (its parameter sets from the camera's SDP).
if [[ " $rows " == *" rtsp-"* ]]; then
  start_camera -o rtp://127.0.0.1:$((port + 10)) --sdp "$dir/relay.sdp"; stop_camera
  sprop=$(sed -n 's/.*sprop-parameter-sets=\([^; ]*\).*/\1/p' "$dir/relay.sdp")
  /usr/bin/python3 Tests/ReelIntegrationTests/Support/rtsp-server.py $((port + 2)) "rtp:$((port + 10)):$sprop" user secret > "$dir/rtsp.log" 2>&1 & children+=($!)
  sleep 1.5
fi

viewers=(clock reel-pipe ffmpeg ffmpeg-lowest gstreamer)
# One viewer's measurement of the row set up below, from a fresh camera publishing with
# the row's arguments: Reel's in-process meter (clock), or y4m into `reel latency`.
measure_viewer() {
  case $1 in
    ffmpeg|ffmpeg-lowest) [ -n "$ffmpeg_input" ] || { echo "- - 0 0 0"; return; } ;;
    gstreamer) [ -n "$gst_cmd" ] || { echo "- - 0 0 0"; return; } ;;
  esac
  start_camera "${camera_args[@]}"
  case $1 in
    clock) reel_row "${reel_args[@]}" ;;
    reel-pipe) pipe_row "$(reel_pipe "${reel_args[@]}")" ;;
    ffmpeg) pipe_row "$ffmpeg_cmd" ;;
    ffmpeg-lowest) pipe_row "$ffmpeg_lowest_cmd" ;;
    gstreamer) pipe_row "$gst_cmd" ;;
  esac
  stop_camera
}

for row in $rows; do
  echo "bench: $row" >&2
  case $row in
    rtp)
      sdp=$dir/camera.sdp; camera_args=(-o rtp://127.0.0.1:$((port + 20)) --sdp "$sdp"); reel_args=("$sdp")
      ffmpeg_input="-protocol_whitelist file,udp,rtp -i $sdp"; reorder="-reorder_queue_size 0"
      gst_cmd="gst-launch-1.0 -q udpsrc port=$((port + 20)) caps=\"application/x-rtp,media=video,clock-rate=90000,encoding-name=H264,payload=96\" ! rtpjitterbuffer latency=0 ! rtph264depay ! h264parse ! $decode" ;;
    rtsp-udp|rtsp-tcp)
      transport=${row#rtsp-}; url=rtsp://127.0.0.1:$((port + 2))/clip
      camera_args=(-o rtp://127.0.0.1:$((port + 10))); reel_args=("$url" --rtsp-transport "$transport")
      ffmpeg_input="-rtsp_transport $transport -i $url"; reorder="-reorder_queue_size 0"
      gst_cmd="gst-launch-1.0 -q rtspsrc location=$url protocols=$transport latency=0 ! rtph264depay ! h264parse ! $decode" ;;
    srt)
      url="srt://127.0.0.1:$((port + 30))?mode=caller&latency=20000"
      camera_args=(-o "srt://127.0.0.1:$((port + 30))?mode=listener&latency=20000"); reel_args=("$url")
      ffmpeg_input="-i '$url'"; reorder=
      gst_cmd="gst-launch-1.0 -q srtsrc uri='srt://127.0.0.1:$((port + 30))?mode=caller' latency=20 ! tsdemux ! h264parse ! $decode" ;;
    ts|ts+20ms|ts+20ms-c)
      listen=$((port + 40)); camera_args=(-o "udp://127.0.0.1:$listen?pkt_size=1316")
      # Each row's delay line takes the camera's port: the row before's is stopped after it.
      if [ "$row" = ts+20ms ]; then
        listen=$((port + 41))
        /usr/bin/python3 scripts/lib/udp_delay_line.py $((port + 40)) $listen 20 & row_child=$!
      elif [ "$row" = ts+20ms-c ]; then
        listen=$((port + 42))
        clang -O2 -o "$dir/udp_delay_line" scripts/lib/udp_delay_line.c   # Swift's own C compiler
        "$dir/udp_delay_line" $((port + 40)) $listen 20 & row_child=$!
      fi
      url=udp://127.0.0.1:$listen; reel_args=("$url")
      ffmpeg_input="-i $url"; reorder=
      gst_cmd="gst-launch-1.0 -q udpsrc port=$listen caps=video/mpegts,systemstream=true,packetsize=188 ! tsdemux ! h264parse ! $decode" ;;
    rtmp)
      url=rtmp://127.0.0.1:$port/live/cam; camera_args=(-o "$url"); reel_args=("$url")
      ffmpeg_input="-i $url"; reorder=
      gst_cmd="gst-launch-1.0 -q rtmp2src location=$url ! flvdemux ! h264parse ! $decode" ;;
    hls)
      url=http://127.0.0.1:$((port + 1))/hls/cam.m3u8; camera_args=(-o rtmp://127.0.0.1:$port/live/cam); reel_args=("$url")
      ffmpeg_input="-i $url"; reorder=
      gst_cmd="gst-launch-1.0 -q souphttpsrc location=$url ! hlsdemux ! tsdemux ! h264parse ! $decode" ;;
    webrtc)
      listen=$((port + 50)); camera_args=(-o "udp://127.0.0.1:$listen?pkt_size=1316")
      WEBRTC_SERVER_AUDIO=0 .cache/python/bin/python Tests/ReelIntegrationTests/Support/webrtc-server.py $((port + 51)) "udp://127.0.0.1:$listen" \
        > "$dir/webrtc.log" 2>&1 & row_child=$!
      sleep 2
      url=whep+http://127.0.0.1:$((port + 51))/whep; reel_args=("$url")
      ffmpeg_input=; reorder=; gst_cmd= ;;
    *) echo "bench: no row $row" >&2; continue ;;
  esac
  ffmpeg_cmd="$ffmpeg_in $ffmpeg_input -f yuv4mpegpipe -"
  ffmpeg_lowest_cmd="$ffmpeg_lowest $reorder $ffmpeg_input -f yuv4mpegpipe -"
  # nginx writes an HLS playlist once two fragments are out.
  [ "$row" = hls ] && export CAMERA_LEAD=4 || export CAMERA_LEAD=1
  for ((run = 0; run < runs; run++)); do
    for ((i = 0; i < ${#viewers[@]}; i++)); do
      viewer=${viewers[(i + run) % ${#viewers[@]}]}
      echo "$row $viewer $(measure_viewer "$viewer")" >> "$dir/results"
    done
  done
  if [ -n "${row_child:-}" ]; then kill "$row_child" 2>/dev/null || true; wait "$row_child" 2>/dev/null || true; row_child=; fi
done

[ -s "$dir/results" ] || { echo "bench: nothing measured" >&2; exit 1; }
python3 - "$dir/results" "$measure" "$runs" <<'PY'
import statistics, sys
path, seconds, runs = sys.argv[1], sys.argv[2], sys.argv[3]
viewers = ["clock", "reel-pipe", "ffmpeg", "ffmpeg-lowest", "gstreamer"]
titles = ["Reel on the clock", "Reel through the pipe", "ffmpeg nobuffer", "ffmpeg lowest", "GStreamer"]
rows, cells = [], {}
for line in open(path):
    row, viewer, p50, p95, pictures, unreadable, dropped = line.split()
    if row not in rows: rows.append(row)
    cells.setdefault((row, viewer), []).append((p50, p95, int(pictures), int(unreadable), int(dropped)))
def median(values):
    numbers = [float(v) for v in values if v != "-"]
    return statistics.median(numbers) if numbers else None
def milliseconds(value): return "-" if value is None else "%.1f" % value
print(f"glass-to-glass latency, 1280x720@30 2 Mbit/s from reel encode --camera --timecode; {runs} runs of {seconds} s per viewer, in turn")
print("median p50 / p95 ms; pictures read / unreadable / dropped over all runs")
print("| protocol | " + " | ".join(titles) + " | pipe ÷ ffmpeg lowest |")
print("|" + "---|" * (len(titles) + 2))
for row in rows:
    line, p50s = [], {}
    for viewer in viewers:
        measured = cells.get((row, viewer), [])
        p50, p95 = median([m[0] for m in measured]), median([m[1] for m in measured])
        p50s[viewer] = p50
        counts = "/".join(str(sum(m[i] for m in measured)) for i in (2, 3, 4))
        line.append(f"{milliseconds(p50)} / {milliseconds(p95)} ({counts})")
    pipe, lowest = p50s["reel-pipe"], p50s["ffmpeg-lowest"]
    ratio = "-" if pipe is None or not lowest else "%.2f" % (pipe / lowest)
    print(f"| {row} | " + " | ".join(line) + f" | {ratio} |")
PY
