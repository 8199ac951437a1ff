#!/usr/bin/env bash
# Glass-to-glass latency, protocol by protocol, in one run: `reel encode --camera
# 1280x720@30 --timecode` (2 Mbit/s, a keyframe a second, no B-frames) publishes; Reel
# (`reel play --measure-latency --latency 0`), ffmpeg (`-fflags nobuffer -flags low_delay`,
# y4m into `reel latency`) and GStreamer (a pipeline into `reel latency`) watch it, one
# after the other, each from a fresh publisher, for SECONDS (default 10) after a 3 s warm-up.
# Prints p50 / p95 in milliseconds and Reel's untimed p50 over ffmpeg's (both hand each
# picture on as it is decoded). Servers on loopback:
# nginx-rtmp (RTMP in, HLS out), gst-rtsp-server relaying the camera's RTP (depayloaded and
# payloaded again: its own few milliseconds are in the RTSP rows), SRT listener.
# Two control rows carry the SRT row's MPEG-TS over plain UDP: `ts` as sent, and `ts+20ms`
# through a delay line that holds each datagram 20 ms, SRT's latency without SRT. Camera and
# players share this machine's cores, so a fixed delay can cost more than itself (it moves
# the player's decoding onto the camera's next encode); SRT is compared with `ts+20ms`.
#   bash scripts/bench-latency.sh            # all rows
#   ROWS="rtp srt" bash scripts/bench-latency.sh
source "$(dirname "$0")/lib/bench-common.sh"
measure=${SECONDS_PER_ROW:-10}
warmup=3
rows=${ROWS:-rtp rtsp-udp rtsp-tcp srt ts ts+20ms rtmp hls}
reel=$PWD/.build/release/reel
dir=$(mktemp -d)
children=()
cleanup() { for pid in "${children[@]}" ${camera_pid:-}; do kill "$pid" 2>/dev/null || true; done; rm -rf "$dir"; }
trap cleanup EXIT
port=$(( (RANDOM % 5000) * 2 + 40000 ))
# Without direct rendering: y4menc writes a decoder's padded buffers whole (GStreamer 1.22).
decode="avdec_h264 direct-rendering=false ! videoconvert ! video/x-raw,format=I420 ! y4menc ! fdsink"

# nginx: RTMP in, HLS of 1 s fragments out over HTTP.
mkdir -p "$dir/hls"
cat > "$dir/nginx.conf" <<CONF
load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
daemon off;
master_process off;
error_log $dir/error.log;
pid $dir/nginx.pid;
events {}
rtmp { server { listen 127.0.0.1:$port; application live { live on; hls on; hls_path $dir/hls; hls_fragment 1s; hls_playlist_length 4s; } } }
http { access_log off; server { listen 127.0.0.1:$((port + 1)); location /hls/ { alias $dir/hls/; types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; } add_header Cache-Control no-cache; } } }
CONF
/usr/sbin/nginx -c "$dir/nginx.conf" -p "$dir" & children+=($!)
sleep 1

# A fresh camera for one measurement: publish ARGS... in the background.
camera_pid=
start_camera() {
  "$reel" encode --camera 1280x720@30 --timecode --realtime --bitrate 2M --gop 30 "$@" 2>/dev/null & camera_pid=$!
  sleep "${CAMERA_LEAD:-1}"
}
stop_camera() { kill "$camera_pid" 2>/dev/null || true; wait "$camera_pid" 2>/dev/null || true; sleep 0.5; }

# "p50 p95" in ms from a LatencySummary's JSON on standard input, or "- -".
figures() { python3 -c '
import json, sys
try:
    s = json.load(sys.stdin); s = s.get("statistics", {}).get("glass_to_glass", s)
    print("%.1f %.1f" % (s["p50"] * 1000, s["p95"] * 1000))
except Exception:
    print("- -")'; }

reel_row() {  # URL [reel play options...]
  local url=$1; shift
  { timeout -s INT $((warmup + measure + 2)) "$reel" play --headless --stats --measure-latency --latency 0 --latency-warmup $warmup "$@" "$url" 2>/dev/null || true; } | figures
}
pipe_row() {  # COMMAND writing y4m
  { timeout -s INT $((warmup + measure + 12)) bash -c "$1 2>/dev/null | '$reel' latency --warmup $warmup --duration $((warmup + measure))" 2>/dev/null || true; } | figures
}
ffmpeg_in="ffmpeg -v error -nostdin -fflags nobuffer -flags low_delay"

# gst-rtsp-server relaying the camera's RTP (its parameter sets from the camera's SDP).
if [[ " $rows " == *" rtsp-"* ]]; then
  start_camera -o rtp://127.0.0.1:$((port + 10)) --sdp "$dir/relay.sdp"; stop_camera
  sprop=$(sed -n 's/.*sprop-parameter-sets=\([^; ]*\).*/\1/p' "$dir/relay.sdp")
  /usr/bin/python3 Tests/ReelIntegrationTests/Support/rtsp-server.py $((port + 2)) "rtp:$((port + 10)):$sprop" user secret > "$dir/rtsp.log" 2>&1 & children+=($!)
  sleep 1.5
fi

# One measurement from a fresh camera publishing with the row's arguments: reel URL OPTIONS…
# (timed), untimed URL OPTIONS… (frames shown as they are decoded, as the pipes below
# hand them on), or pipe COMMAND.
measure_with() {
  local kind=$1; shift
  start_camera "${camera_args[@]}"
  case $kind in
    reel) reel_row "$@" ;;
    untimed) reel_row "$@" --untimed ;;
    pipe) pipe_row "$1" ;;
  esac
  stop_camera
}

declare -A table
for row in $rows; do
  echo "bench: $row" >&2
  case $row in
    rtp)
      sdp=$dir/camera.sdp; camera_args=(-o rtp://127.0.0.1:$((port + 20)) --sdp "$sdp"); reel_args=("$sdp")
      ffmpeg_cmd="$ffmpeg_in -protocol_whitelist file,udp,rtp -i $sdp -f yuv4mpegpipe -"
      gst_cmd="gst-launch-1.0 -q udpsrc port=$((port + 20)) caps=\"application/x-rtp,media=video,clock-rate=90000,encoding-name=H264,payload=96\" ! rtpjitterbuffer latency=0 ! rtph264depay ! h264parse ! $decode" ;;
    rtsp-udp|rtsp-tcp)
      transport=${row#rtsp-}; url=rtsp://127.0.0.1:$((port + 2))/clip
      camera_args=(-o rtp://127.0.0.1:$((port + 10))); reel_args=("$url" --rtsp-transport "$transport")
      ffmpeg_cmd="$ffmpeg_in -rtsp_transport $transport -i $url -f yuv4mpegpipe -"
      gst_cmd="gst-launch-1.0 -q rtspsrc location=$url protocols=$transport latency=0 ! rtph264depay ! h264parse ! $decode" ;;
    srt)
      url="srt://127.0.0.1:$((port + 30))?mode=caller&latency=20000"
      camera_args=(-o "srt://127.0.0.1:$((port + 30))?mode=listener&latency=20000"); reel_args=("$url")
      ffmpeg_cmd="$ffmpeg_in -i '$url' -f yuv4mpegpipe -"
      gst_cmd="gst-launch-1.0 -q srtsrc uri='srt://127.0.0.1:$((port + 30))?mode=caller' latency=20 ! tsdemux ! h264parse ! $decode" ;;
    ts|ts+20ms)
      listen=$((port + 40)); camera_args=(-o "udp://127.0.0.1:$listen?pkt_size=1316")
      if [ "$row" = ts+20ms ]; then
        listen=$((port + 41))
        /usr/bin/python3 scripts/lib/udp_delay_line.py $((port + 40)) $listen 20 & children+=($!)
      fi
      url=udp://127.0.0.1:$listen; reel_args=("$url")
      ffmpeg_cmd="$ffmpeg_in -i $url -f yuv4mpegpipe -"
      gst_cmd="gst-launch-1.0 -q udpsrc port=$listen caps=video/mpegts,systemstream=true,packetsize=188 ! tsdemux ! h264parse ! $decode" ;;
    rtmp)
      url=rtmp://127.0.0.1:$port/live/cam; camera_args=(-o "$url"); reel_args=("$url")
      ffmpeg_cmd="$ffmpeg_in -i $url -f yuv4mpegpipe -"
      gst_cmd="gst-launch-1.0 -q rtmp2src location=$url ! flvdemux ! h264parse ! $decode" ;;
    hls)
      url=http://127.0.0.1:$((port + 1))/hls/cam.m3u8; camera_args=(-o rtmp://127.0.0.1:$port/live/cam); reel_args=("$url")
      ffmpeg_cmd="$ffmpeg_in -i $url -f yuv4mpegpipe -"
      gst_cmd="gst-launch-1.0 -q souphttpsrc location=$url ! hlsdemux ! tsdemux ! h264parse ! $decode" ;;
    *) echo "bench: no row $row" >&2; continue ;;
  esac
  # nginx writes an HLS playlist once two fragments are out.
  [ "$row" = hls ] && export CAMERA_LEAD=4 || export CAMERA_LEAD=1
  r=$(measure_with reel "${reel_args[@]}")
  u=$(measure_with untimed "${reel_args[@]}")
  f=$(measure_with pipe "$ffmpeg_cmd")
  g=$(measure_with pipe "$gst_cmd")
  table[$row]="$r|$u|$f|$g"
done

echo "glass-to-glass latency, 1280x720@30 2 Mbit/s from reel encode --camera --timecode, p50 / p95 ms over ${measure} s"
echo "(Reel: reel play --latency 0, frames shown on the clock; untimed: --untimed, shown as decoded, as the pipes hand them on)"
printf "| %-9s | %-15s | %-15s | %-15s | %-15s | %-12s |\n" protocol "Reel" "Reel untimed" "ffmpeg nobuffer" GStreamer "untimed÷ffmpeg"
printf "|%s|%s|%s|%s|%s|%s|\n" ----------- ----------------- ----------------- ----------------- ----------------- --------------
for row in $rows; do
  [ -n "${table[$row]:-}" ] || continue
  IFS='|' read -r r u f g <<< "${table[$row]}"
  read -r r50 r95 <<< "$r"; read -r u50 u95 <<< "$u"; read -r f50 f95 <<< "$f"; read -r g50 g95 <<< "$g"
  ratio=$(awk -v a="$u50" -v b="$f50" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }')
  printf "| %-9s | %-15s | %-15s | %-15s | %-15s | %-14s |\n" "$row" "$r50 / $r95" "$u50 / $u95" "$f50 / $f95" "$g50 / $g95" "$ratio"
done
