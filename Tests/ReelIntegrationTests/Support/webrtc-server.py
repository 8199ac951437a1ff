# A WHEP server for the tests, on aiortc (an independent WebRTC stack, from PyPI)
# and aiohttp, on loopback:
# - POST /whep: a viewer's offer; answers with the video of FILE (an MPEG-TS of H.264, sent
#   as it is: aiortc packetizes the file's own access units, so what arrives can be checked
#   picture by picture against ffmpeg's framemd5 of FILE) and, when FILE has sound, its
#   sound encoded to Opus by aiortc.
#   With WEBRTC_SERVER_VIDEO_CODEC=vp8, the video is FILE's pictures encoded to VP8 by
#   aiortc (libvpx) instead.
# - POST /whip: a publisher's offer; the access units aiortc reassembles from what it sends
#   are appended, as Annex B, to WEBRTC_SERVER_VIDEO (when set), for ffmpeg to decode, and
#   each picture aiortc decodes is logged as "picture N"; "video ended" when the stream
#   does; with WEBRTC_SERVER_PLI_AFTER=N, a keyframe is asked for (PLI) after picture N,
#   and "pli" logged; its sound, decoded, is written to the WAV file
#   WEBRTC_SERVER_SOUND (when set), and "sound N" logged with its sample count at the end.
# - PATCH SESSION: trickle-ICE fragments (counted), DELETE SESSION: the session ends.
# - With TOKEN, a request without "Authorization: Bearer TOKEN" gets 401. POST /busy gets 409.
# - WEBRTC_SERVER_LOSS=P and WEBRTC_SERVER_JITTER=S impair the RTP it sends: each packet
#   lost with probability P (a packet sent again after a NACK is held but never lost, so
#   every loss can be repaired), or held a uniform 0 … S seconds (which also reorders),
#   from a seed (WEBRTC_SERVER_SEED, 1). Each DELETE logs the truth so far:
#   "impaired sent=N dropped=N nacked=N asked-after-ms=A,B,… keyframes-asked=N
#   keyframe-asked-after-ms=K,L,… drop-age-ms=D,E,…" (packets sent, dropped, asked for
#   again by NACK; for each drop asked for, the time from the drop to the first NACK that
#   named it; keyframe requests (PLI or FIR: aiortc sends the file as it is, so none is
#   answered); for each drop in order, the time from it to the first keyframe request after
#   it, -1 if none came, and how long before the truth it was). With
#   WEBRTC_SERVER_UNREPAIRED=1 a dropped packet is never sent again: every loss is one
#   that only a keyframe mends.
# Each request is logged to standard output as one line; "ready" once listening.
#   python3 webrtc-server.py PORT FILE [TOKEN]
# Or, with --exchange, prints a viewer's offer (video and sound, receive only), a line
# "--", and the answer of a server sending FILE's video, both made by aiortc, and ends:
# real descriptions, for the fuzzer's seeds.
#   python3 webrtc-server.py --exchange FILE
import asyncio
import contextvars
import os
import random
import wave
import sys
import time
import uuid

from aiohttp import web
from aiortc import RTCPeerConnection, RTCRtpSender, RTCSessionDescription
from aiortc.codecs import is_rtx
from aiortc.codecs.h264 import H264Decoder
from aiortc.contrib.media import MediaPlayer
from aiortc.rtcdtlstransport import RTCDtlsTransport
from aiortc.rtp import is_rtcp

sessions = {}


def log(line):
    print(line, flush=True)


class Impairment:
    """Loss and jitter on every RTP packet the server sends, and the truth of it."""

    def __init__(self, loss, jitter, seed, unrepaired):
        # Losses drawn from a generator of their own, for packets sent the first time only:
        # the n-th such packet is lost or not whatever was resent meanwhile. (One generator
        # for both, drawn for resent packets too, once lost nothing in 547 packets: which
        # draw decided a loss depended on what had been resent before.)
        self.loss, self.jitter, self.unrepaired = loss, jitter, unrepaired
        self.losses, self.delays = random.Random(seed), random.Random(seed + 1)
        self.sent = self.dropped = self.nacked = 0
        # (SSRC, sequence number) of each packet dropped: when, and when first asked for.
        self.drops, self.asked = {}, {}
        self.keyframes_asked = []

    def install(self):
        send, retransmit, ask_keyframe, impairment = RTCDtlsTransport._send_rtp, RTCRtpSender._retransmit, RTCRtpSender._send_keyframe, self

        async def impaired_send(transport, data):
            if is_rtcp(data):
                return await send(transport, data)
            impairment.sent += 1
            if not retransmitting.get() and impairment.losses.random() < impairment.loss:
                impairment.dropped += 1
                impairment.drops[(data[8:12], int.from_bytes(data[2:4], "big"))] = time.monotonic()
                return
            delay = impairment.delays.uniform(0, impairment.jitter)
            if delay <= 0:
                return await send(transport, data)

            async def later():
                await asyncio.sleep(delay)
                try:
                    await send(transport, data)
                except ConnectionError:
                    pass  # the session ended meanwhile
            asyncio.ensure_future(later())

        async def counted_retransmit(sender, sequence_number):
            impairment.nacked += 1
            key = (sender._ssrc.to_bytes(4, "big"), sequence_number)
            impairment.asked.setdefault(key, time.monotonic())
            if impairment.unrepaired and key in impairment.drops:
                return
            marked = retransmitting.set(True)
            try:
                await retransmit(sender, sequence_number)
            finally:
                retransmitting.reset(marked)

        def counted_keyframe_request(sender):
            impairment.keyframes_asked.append(time.monotonic())
            ask_keyframe(sender)

        RTCDtlsTransport._send_rtp = impaired_send
        RTCRtpSender._retransmit = counted_retransmit
        RTCRtpSender._send_keyframe = counted_keyframe_request

    def truth(self):
        def ms(seconds):
            return str(round(seconds * 1000))
        now, drops = time.monotonic(), self.drops.values()
        asked = [ms(self.asked[key] - dropped) for key, dropped in self.drops.items() if key in self.asked]
        keyframe = [next((ms(at - dropped) for at in self.keyframes_asked if at >= dropped), "-1") for dropped in drops]
        return (f"impaired sent={self.sent} dropped={self.dropped} nacked={self.nacked} asked-after-ms={','.join(asked)}"
                f" keyframes-asked={len(self.keyframes_asked)} keyframe-asked-after-ms={','.join(keyframe)}"
                f" drop-age-ms={','.join(ms(now - dropped) for dropped in drops)}")


impairment = None
# Set while a packet asked for again is sent (in that task's context only).
retransmitting = contextvars.ContextVar("retransmitting", default=False)


def refused(request):
    if token is None or request.headers.get("Authorization") == f"Bearer {token}":
        return None
    log(f"{request.method} {request.path} 401")
    return web.Response(status=401, text="a bearer token is needed")


def dtls_server(sdp):
    """aiortc as the DTLS server: as a client it offers ECDHE-ECDSA suites only, which
    webrtcbin's DTLS server (an RSA certificate) cannot take ("no shared cipher"); a
    server such as MediaMTX (pion) takes either role."""
    return sdp.replace("a=setup:active", "a=setup:passive")


def prefer(transceiver, mime):
    """Answers with `mime` (and its RTX) alone, where the offer has it: aiortc chose the
    codecs, in the offer's order, when it took the offer (setCodecPreferences after that
    changes nothing), and sends the first."""
    chosen = [c for c in transceiver._codecs if c.mimeType.lower() == mime]
    if chosen:
        kept = {c.payloadType for c in chosen}
        transceiver._codecs = chosen + [c for c in transceiver._codecs if is_rtx(c) and c.parameters.get("apt") in kept]


def refused_offer(request, route):
    """The response to an offer this server will not take (no token, not SDP), or None."""
    if (response := refused(request)) is not None:
        return response
    if request.content_type != "application/sdp":
        log(f"POST /{route} 415 {request.content_type}")
        return web.Response(status=415, text="an offer is application/sdp")
    return None


async def whep(request):
    if (response := refused_offer(request, "whep")) is not None:
        return response
    pc = RTCPeerConnection()
    await pc.setRemoteDescription(RTCSessionDescription(sdp=await request.text(), type="offer"))
    codec = os.environ.get("WEBRTC_SERVER_VIDEO_CODEC", "h264")
    video = MediaPlayer(path, decode=codec != "h264")
    sound = MediaPlayer(path) if os.environ.get("WEBRTC_SERVER_AUDIO", "1") == "1" else None
    for transceiver in pc.getTransceivers():
        if transceiver.kind == "video" and video.video is not None:
            prefer(transceiver, f"video/{codec}")
            pc.addTrack(video.video)
        elif transceiver.kind == "audio" and sound is not None and sound.audio is not None:
            prefer(transceiver, "audio/opus")
            pc.addTrack(sound.audio)
    return await created(request, pc, "whep", [video, sound])


def keep_access_units(path):
    """Every access unit aiortc hands its H.264 decoder, appended to `path` as it is."""
    decode = H264Decoder.decode

    def keeping(decoder, encoded_frame):
        with open(path, "ab") as out:
            out.write(encoded_frame.data)
        return decode(decoder, encoded_frame)
    H264Decoder.decode = keeping


async def record(track, receiver):
    count, pli_after = 0, int(os.environ.get("WEBRTC_SERVER_PLI_AFTER", "-1"))
    while True:
        try:
            await track.recv()
        except Exception:
            log("video ended")
            return
        log(f"picture {count}")
        if count == pli_after:
            for source in receiver.getSynchronizationSources():
                await receiver._send_rtcp_pli(source.source)
            log("pli")
        count += 1


async def save_sound(track, path):
    out, count = None, 0
    try:
        while True:
            try:
                frame = await track.recv()
            except Exception:
                return
            if out is None:
                out = wave.open(path, "wb")
                out.setnchannels(len(frame.layout.channels))
                out.setsampwidth(2)
                out.setframerate(frame.sample_rate)
            if frame.format.name != "s16":
                raise ValueError(f"sound as {frame.format.name}, not s16")
            out.writeframes(bytes(frame.planes[0])[:frame.samples * 2 * len(frame.layout.channels)])
            count += frame.samples
    finally:
        if out is not None:
            out.close()
        log(f"sound {count}")


async def whip(request):
    if (response := refused_offer(request, "whip")) is not None:
        return response
    pc = RTCPeerConnection()

    @pc.on("track")
    def on_track(track):
        if track.kind == "video":
            receiver = next(t.receiver for t in pc.getTransceivers() if t.receiver.track is track)
            asyncio.ensure_future(record(track, receiver))
        elif track.kind == "audio" and os.environ.get("WEBRTC_SERVER_SOUND"):
            asyncio.ensure_future(save_sound(track, os.environ["WEBRTC_SERVER_SOUND"]))

    await pc.setRemoteDescription(RTCSessionDescription(sdp=await request.text(), type="offer"))
    for transceiver in pc.getTransceivers():
        if transceiver.kind == "video":
            prefer(transceiver, "video/h264")
        elif transceiver.kind == "audio":
            prefer(transceiver, "audio/opus")
    return await created(request, pc, "whip", [])


async def created(request, pc, route, players):
    session = uuid.uuid4().hex
    sessions[session] = (pc, players)
    answer = await pc.createAnswer()
    await pc.setLocalDescription(RTCSessionDescription(sdp=dtls_server(answer.sdp), type="answer"))
    log(f"POST /{route} 201 {session}")
    return web.Response(status=201, content_type="application/sdp", text=pc.localDescription.sdp,
                        headers={"Location": f"/{route}/session/{session}"})


async def patch(request):
    if (response := refused(request)) is not None:
        return response
    session = request.match_info["session"]
    if session not in sessions:
        log(f"PATCH {request.path} 404")
        return web.Response(status=404)
    body = await request.text()
    candidates = sum(1 for line in body.splitlines() if line.startswith("a=candidate:"))
    ended = "a=end-of-candidates" in body
    log(f"PATCH {request.path} 204 candidates={candidates} end={int(ended)} type={request.content_type}")
    return web.Response(status=204)


async def delete(request):
    if (response := refused(request)) is not None:
        return response
    session = request.match_info["session"]
    entry = sessions.pop(session, None)
    if entry is None:
        log(f"DELETE {request.path} 404")
        return web.Response(status=404)
    log(f"DELETE {request.path} 200")
    if impairment is not None:
        log(impairment.truth())
    # Closing DTLS and ICE takes a while: after the answer, not before it.
    asyncio.ensure_future(close(*entry))
    return web.Response(status=200)


async def close(pc, players):
    await pc.close()
    for player in players:
        if player is not None:
            for track in (player.audio, player.video):
                if track is not None:
                    track.stop()


async def busy(request):
    log("POST /busy 409")
    return web.Response(status=409, text="no room for another viewer")


async def main():
    app = web.Application()
    app.router.add_post("/whep", whep)
    app.router.add_post("/whip", whip)
    app.router.add_post("/busy", busy)
    app.router.add_patch("/{route}/session/{session}", patch)
    app.router.add_delete("/{route}/session/{session}", delete)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    log("ready")
    await asyncio.Event().wait()


async def exchange_once():
    viewer = RTCPeerConnection()
    viewer.addTransceiver("video", direction="recvonly")
    viewer.addTransceiver("audio", direction="recvonly")
    await viewer.setLocalDescription(await viewer.createOffer())
    offer = viewer.localDescription.sdp
    pc = RTCPeerConnection()
    await pc.setRemoteDescription(RTCSessionDescription(sdp=offer, type="offer"))
    video = MediaPlayer(path, decode=False)
    for transceiver in pc.getTransceivers():
        if transceiver.kind == "video":
            prefer(transceiver, "video/h264")
            pc.addTrack(video.video)
    await pc.setLocalDescription(await pc.createAnswer())
    sys.stdout.write(offer + "--\n" + pc.localDescription.sdp)
    await pc.close()
    await viewer.close()


if sys.argv[1] == "--exchange":
    path = sys.argv[2]
    asyncio.run(exchange_once())
else:
    port, path = int(sys.argv[1]), sys.argv[2]
    token = sys.argv[3] if len(sys.argv) > 3 else None
    if os.environ.get("WEBRTC_SERVER_VIDEO"):
        keep_access_units(os.environ["WEBRTC_SERVER_VIDEO"])
    loss, jitter = float(os.environ.get("WEBRTC_SERVER_LOSS", "0")), float(os.environ.get("WEBRTC_SERVER_JITTER", "0"))
    if loss > 0 or jitter > 0:
        impairment = Impairment(loss, jitter, int(os.environ.get("WEBRTC_SERVER_SEED", "1")), os.environ.get("WEBRTC_SERVER_UNREPAIRED") == "1")
        impairment.install()
    asyncio.run(main())
