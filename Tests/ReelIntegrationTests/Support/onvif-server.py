# An ONVIF camera with an audio back-channel, on gst-rtsp-server's ONVIF server (as its
# test-onvif-backchannel example): /cam sends a small H.264 picture (VIDEO, an MP4 file) and
# takes G.711 (PCMU or PCMA, 8 kHz mono) on its back-channel, decoded by GStreamer and written
# as raw 16-bit samples to OUTPUT. /plain is the same camera without a back-channel. Prints
# "ready" once it listens. The picture comes from a file rather than a live encoder
# (openh264enc; x264enc is in plug-ins this project does not install).
#   python3 onvif-server.py PORT OUTPUT PCMU|PCMA VIDEO
import sys

import gi
gi.require_version("Gst", "1.0")
gi.require_version("GstRtsp", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtsp, GstRtspServer

Gst.init(None)
port, output, codec, path = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
payload, depay, decoder = {"PCMU": (0, "rtppcmudepay", "mulawdec"), "PCMA": (8, "rtppcmadepay", "alawdec")}[codec]
# The tee lets the picture flow on when a session set up only the back-channel (as Reel's
# talk-back does): its payloader is then linked to nothing, and the not-linked it returns
# stopped the whole media, back-channel and all (a CI run: the camera heard nothing).
video = f"( filesrc location={path} ! qtdemux ! h264parse ! tee allow-not-linked=true ! rtph264pay name=pay0 pt=96 config-interval=1 )"

server = GstRtspServer.RTSPOnvifServer.new()
server.set_address("127.0.0.1")
server.set_service(port)
camera = GstRtspServer.RTSPOnvifMediaFactory.new()
camera.set_launch(video)
camera.set_media_gtype(GstRtspServer.RTSPOnvifMedia)
camera.set_backchannel_launch(
    f"( capsfilter caps=\"application/x-rtp,media=audio,payload={payload},clock-rate=8000,encoding-name={codec}\" "
    f"name=depay_backchannel ! {depay} ! {decoder} ! audio/x-raw,format=S16LE "
    f"! filesink location={output} buffer-mode=unbuffered sync=false async=false )")
camera.set_protocols(GstRtsp.RTSPLowerTrans.UDP | GstRtsp.RTSPLowerTrans.TCP)
server.get_mount_points().add_factory("/cam", camera)
plain = GstRtspServer.RTSPMediaFactory.new()
plain.set_launch(video)
server.get_mount_points().add_factory("/plain", plain)
if server.attach(None) == 0:
    sys.exit(f"onvif-server: cannot listen on 127.0.0.1:{port}")
print("ready", flush=True)
GLib.MainLoop().run()
