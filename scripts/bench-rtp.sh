#!/usr/bin/env bash
# The RTP receiver against its peers, in one run, alternating, medians of RUNS (default 5):
# 1. depacketizing plus access-unit assembly of a recorded 1080p 20 Mbit/s H.264 stream on
#    one core (taskset), packets per second: Reel's core on the packets in memory (median
#    of 9 passes) against GStreamer's rtpstreamdepay ! rtph264depay on the same RFC 4571
#    file, its start-up (the same pipeline on the first 100 packets) subtracted;
# 2. receiving that stream live from ffmpeg on loopback, sent LOOPS+1 times in a row
#    (default 1: 20 s): CPU seconds of `reel rtp receive` against
#    `ffmpeg -protocol_whitelist file,udp,rtp -i stream.sdp -c copy -f null -`, the whole
#    process, and net of a run that receives the first second only (start-up, probing and
#    exit): the cost of receiving itself, which is what a long session pays.
source "$(dirname "$0")/lib/bench-common.sh"
swift build -c release --product reel-bench >&2
runs=${RUNS:-5}
loops=${LOOPS:-1}
dir=.cache/bench/rtp
mkdir -p "$dir"
stream=$dir/h264-1080p30-20mbit-10s.ts
if [ ! -s "$stream" ]; then
  echo "bench: making $stream" >&2
  ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=10" -c:v libx264 -preset veryfast \
    -b:v 20M -maxrate 20M -bufsize 20M -g 60 -bf 2 -pix_fmt yuv420p "$stream.part.ts"
  mv "$stream.part.ts" "$stream"
fi
port=$(( (RANDOM % 10000) * 2 + 30000 ))
packets=$dir/h264-1080p30-20mbit-10s.rtp4571
sdp=$dir/stream.sdp
ffmpeg -v error -nostdin -y -i "$stream" -c copy -frames:v 1 -f rtp -sdp_file "$sdp" "rtp://127.0.0.1:$port" >/dev/null
if [ ! -s "$packets" ]; then
  echo "bench: catching the packets of $stream" >&2
  python3 scripts/lib/rtp_bench.py capture "$stream" "$packets.part" $((port + 10)) >/dev/null
  mv "$packets.part" "$packets"
fi
count=$(.build/release/reel-bench rtp-depacketize "$packets" | awk '{ print $1 }')
head_packets=$dir/first-100.rtp4571
python3 -c "
import sys
data = open(sys.argv[1], 'rb').read(); offset = 0
for _ in range(100): offset += 2 + int.from_bytes(data[offset:offset + 2], 'big')
open(sys.argv[2], 'wb').write(data[:offset])" "$packets" "$head_packets"

gst() {
  gst-launch-1.0 -q filesrc location="$1" ! "application/x-rtp-stream,media=video,clock-rate=90000,encoding-name=H264,payload=96" \
    ! rtpstreamdepay ! rtph264depay ! "video/x-h264,stream-format=byte-stream,alignment=au" ! fakesink
}
reel_rates=() gst_rates=() reel_cpu=() ffmpeg_cpu=() reel_short=() ffmpeg_short=()
for ((run = 1; run <= runs; run++)); do
  reel_rates+=("$(taskset -c 0 .build/release/reel-bench rtp-depacketize "$packets" --passes 9 | awk '{ print $5 }')")
  whole=$(seconds taskset -c 0 bash -c "$(declare -f gst); gst $packets")
  start=$(seconds taskset -c 0 bash -c "$(declare -f gst); gst $head_packets")
  gst_rates+=("$(awk -v n="$count" -v a="$whole" -v b="$start" 'BEGIN { printf "%.0f\n", (n - 100) / (a - b) }')")
  echo "run $run depacketize: reel ${reel_rates[-1]} pkt/s, gstreamer ${gst_rates[-1]} pkt/s" >&2
done
reel_receiver=(.build/release/reel rtp receive --sdp "$sdp" --latency 200)
ffmpeg_receiver=(ffmpeg -v error -nostdin -protocol_whitelist file,udp,rtp -buffer_size 67108864 -i "$sdp" -c copy -f null -)
for ((run = 1; run <= runs; run++)); do
  one_reel() { reel_cpu+=("$(python3 scripts/lib/rtp_bench.py cpu "$port" "$stream" "$loops" "${reel_receiver[@]}")"); }
  one_ffmpeg() { ffmpeg_cpu+=("$(python3 scripts/lib/rtp_bench.py cpu "$port" "$stream" "$loops" "${ffmpeg_receiver[@]}")"); }
  if ((run % 2)); then one_reel; one_ffmpeg; else one_ffmpeg; one_reel; fi
  reel_short+=("$(python3 scripts/lib/rtp_bench.py first-second "$port" "$stream" "$loops" "${reel_receiver[@]}")")
  ffmpeg_short+=("$(python3 scripts/lib/rtp_bench.py first-second "$port" "$stream" "$loops" "${ffmpeg_receiver[@]}")")
  echo "run $run receive: reel ${reel_cpu[-1]} s CPU (${reel_short[-1]} s for 1 s), ffmpeg ${ffmpeg_cpu[-1]} s CPU (${ffmpeg_short[-1]} s for 1 s)" >&2
done
rr=$(printf '%s\n' "${reel_rates[@]}" | median); gr=$(printf '%s\n' "${gst_rates[@]}" | median)
rc=$(printf '%s\n' "${reel_cpu[@]}" | median); fc=$(printf '%s\n' "${ffmpeg_cpu[@]}" | median)
ri=$(printf '%s\n' "${reel_short[@]}" | median); fi=$(printf '%s\n' "${ffmpeg_short[@]}" | median)
awk -v n="$count" -v rr="$rr" -v gr="$gr" -v rc="$rc" -v fc="$fc" -v ri="$ri" -v fi="$fi" -v k="$runs" -v s="$(( (loops + 1) * 10 ))" 'BEGIN {
  printf "RTP receive, 1080p30 H.264 at 20 Mbit/s, 10 s (%d packets), medians of %d alternating runs\n", n, k
  printf "  depacketize + assemble, one core: reel %.0f pkt/s, GStreamer rtpstreamdepay+rtph264depay %.0f pkt/s, ratio %.2f (higher is better)\n", rr, gr, rr / gr
  printf "  live receive of %d s, CPU: reel rtp receive %.3f s, ffmpeg -c copy -f null %.3f s, ratio %.2f (target <= 0.5)\n", s, rc, fc, rc / fc
  printf "  the same less a run of the first second (reel %.3f s, ffmpeg %.3f s), the cost of %d s of stream: reel %.3f s, ffmpeg %.3f s, ratio %.2f\n", ri, fi, s - 1, rc - ri, fc - fi, (rc - ri) / (fc - fi)
}'
