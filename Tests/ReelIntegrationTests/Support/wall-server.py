# Cameras for the camera wall's tests and benchmark, on gst-rtsp-server: each MOUNT relays
# H.264 in RTP arriving at its loopback UDP port RTPPORT, its parameter sets SPROP as an
# SDP's sprop-parameter-sets (a sender such as `ffmpeg -re -stream_loop -1 -i clip.mp4
# -c copy -f rtp rtp://127.0.0.1:RTPPORT` keeps it coming for ever, as a camera does).
# Every client of a mount shares its one relay. Prints "ready" once it listens.
#   python3 wall-server.py PORT /MOUNT=RTPPORT:SPROP ...
import sys

import gi
gi.require_version("Gst", "1.0")
gi.require_version("GstRtsp", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtsp, GstRtspServer

Gst.init(None)
server = GstRtspServer.RTSPServer.new()
server.set_address("127.0.0.1")
server.set_service(sys.argv[1])
for spec in sys.argv[2:]:
    mount, source = spec.split("=", 1)
    rtp_port, parameter_sets = source.split(":", 1)
    factory = GstRtspServer.RTSPMediaFactory.new()
    factory.set_launch(
        f"( udpsrc port={rtp_port} buffer-size=4194304 caps=\"application/x-rtp,media=video,clock-rate=90000,"
        f"encoding-name=H264,payload=96,sprop-parameter-sets=(string)\\\"{parameter_sets}\\\"\" "
        "! rtph264depay ! rtph264pay name=pay0 pt=96 )")
    factory.set_shared(True)
    factory.set_protocols(GstRtsp.RTSPLowerTrans.UDP | GstRtsp.RTSPLowerTrans.TCP)
    server.get_mount_points().add_factory(mount, factory)
if server.attach(None) == 0:
    sys.exit(f"wall-server: cannot listen on 127.0.0.1:{sys.argv[1]}")
print("ready", flush=True)
GLib.MainLoop().run()
