#!/usr/bin/env bash
# Installs the system packages Reel needs, only those that are missing. Safe to run again.
# Scripts with needs of their own (the soak's chart) name extra packages as arguments.
set -euo pipefail

packages=(
  pkg-config
  ffmpeg                # the ffmpeg/ffprobe oracles and fixture maker
  openssl               # certificates for the HTTPS test server
  libsdl2-dev           # the player's window and audio device
  libfreetype-dev fonts-dejavu-core   # text in VAP fusion animations
  libass-dev            # subtitles (text formats: SRT, WebVTT, ASS)
  python3-fonttools     # a font of a name no system has, attached to the subtitle tests' Matroska file
  xvfb x11-apps xdotool # a real X display for window tests, screenshots (xwd) and input
  python3-xlib          # window-manager messages (closing a window) in window tests
  openbox               # a window manager for the tests that need one (fullscreen is the manager's to grant)
  tesseract-ocr         # reads the chapter's title off the window's bar
  tshark                # Wireshark's dissectors read what went on the wire (RTCP)
  zsh fish              # the shells whose completion scripts the tests load
  mpv                   # the playback benchmark's peer
  gdb                   # the threads of a hung test process, printed before it is stopped
  nginx-light libnginx-mod-rtmp   # a real RTMP server for the input tests
  python3-gi gir1.2-gst-rtsp-server-1.0   # a real RTSP server (gst-rtsp-server) for the live input tests
  libsrtp2-dev          # SRTP and SRTCP for the RTP receiver
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad   # the second RTP sender (rtph264pay, rtph265pay)
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-libav   # the second engine (GStreamer's C API, its libav decoders)
  gstreamer1.0-nice     # ICE for webrtcbin (WebRTC: WHEP and WHIP)
  libglib2.0-dev        # GDBus, for the MPRIS service
  dbus-daemon playerctl # a private session bus, and the MPRIS client desktops use, for the MPRIS tests
  socat python3-venv    # clients written for mpv that drive `reel play --input-ipc-server` (socat, and python-mpv-jsonipc in a venv)
  libavformat-dev libavcodec-dev libavfilter-dev libavutil-dev libswscale-dev libswresample-dev
  "$@"
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  [ -x /opt/swift/usr/bin/swift ] && echo "setup: add /opt/swift/usr/bin to PATH" >&2
  echo "setup: Swift 6 is required (https://www.swift.org/install/linux/)" >&2
  exit 1
fi

# PyPI packages the tests use as independent clients, in the package's own venv.
# aiortc is the WebRTC peer (WHEP and WHIP) of the WebRTC tests: a stack of its own, with
# wheels for every part (no compiler needed).
venv="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.cache/python"
if ! "$venv/bin/python" -c "import python_mpv_jsonipc, aiortc, aiohttp" 2>/dev/null; then
  echo "setup: installing python-mpv-jsonipc, aiortc and aiohttp into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check python-mpv-jsonipc==1.5.0
  "$venv/bin/pip" install -q --disable-pip-version-check --only-binary :all: aiortc==1.16.0 aiohttp==3.14.5
fi
