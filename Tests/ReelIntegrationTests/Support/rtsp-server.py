# RTSP servers on gst-rtsp-server for the tests: serve FILE (MP4, H.264 + AAC) on
# loopback as /clip (and its video alone as /video), to anyone on PORT and to USER:PASSWORD alone (digest authentication)
# on PORT + 1, over RTP/UDP or TCP-interleaved as the client asks. Prints "ready" once
# both listen. (One server cannot do both: an anonymous client's default token makes it
# answer 404, not the 401 that asks a client for its credentials.)
# FILE may also be rtp:PORT:SPROP: H.264 in RTP (payload type 96, its parameter sets
# SPROP as an SDP's sprop-parameter-sets) arriving at PORT is served instead, as a camera's
# relay (scripts/bench-latency.sh). Its repeats of the parameter sets are left out: put
# between a picture's slices, they broke the pictures of a multi-slice encoder.
# SESSION_TIMEOUT, when given, is the seconds a session lives without a word from its
# client (60 by default): the session header tells the client, who keeps it alive.
#   python3 rtsp-server.py PORT FILE USER PASSWORD [SESSION_TIMEOUT]
import sys

import gi
gi.require_version("Gst", "1.0")
gi.require_version("GstRtsp", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtsp, GstRtspServer

port, path, user, password = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
session_timeout = int(sys.argv[5]) if len(sys.argv) > 5 else None
Gst.init(None)

if path.startswith("rtp:"):
    rtp_port, parameter_sets = path[4:].split(":", 1)
    launch = (f"( udpsrc port={rtp_port} buffer-size=4194304 caps=\"application/x-rtp,media=video,clock-rate=90000,"
              f"encoding-name=H264,payload=96,sprop-parameter-sets=(string)\\\"{parameter_sets}\\\"\" "
              "! rtph264depay ! rtph264pay name=pay0 pt=96 )")
    video_launch = launch
else:
    video = f"filesrc location={path} ! qtdemux name=d d.video_0 ! queue ! h264parse ! rtph264pay name=pay0 pt=96 config-interval=-1"
    video_launch = f"( {video} )"
    launch = f"( {video} d.audio_0 ! queue ! aacparse ! rtpmp4gpay name=pay1 pt=97 )"



def serve(service, auth):
    server = GstRtspServer.RTSPServer.new()
    server.set_address("127.0.0.1")
    server.set_service(service)
    if auth:
        server.set_auth(auth)
    for mount, description in (("/clip", launch), ("/video", video_launch)):
        media = GstRtspServer.RTSPMediaFactory.new()
        media.set_launch(description)
        media.set_protocols(GstRtsp.RTSPLowerTrans.UDP | GstRtsp.RTSPLowerTrans.TCP)
        if auth:
            permissions = GstRtspServer.RTSPPermissions()
            permissions.add_role("user")
            permissions.add_permission_for_role("user", "media.factory.access", True)
            permissions.add_permission_for_role("user", "media.factory.construct", True)
            media.set_permissions(permissions)
        server.get_mount_points().add_factory(mount, media)
    if session_timeout:
        server.connect("client-connected", lambda _, client: client.connect(
            "new-session", lambda _, session: session.set_timeout(session_timeout)))
    if server.attach(None) == 0:
        sys.exit(f"rtsp-server: cannot listen on 127.0.0.1:{service}")
    return server


auth = GstRtspServer.RTSPAuth()
auth.set_supported_methods(GstRtsp.RTSPAuthMethod.DIGEST)
token = GstRtspServer.RTSPToken()
token.set_string("media.factory.role", "user")
auth.add_digest(user, password, token)
servers = [serve(port, None), serve(str(int(port) + 1), auth)]
print("ready", flush=True)
GLib.MainLoop().run()
