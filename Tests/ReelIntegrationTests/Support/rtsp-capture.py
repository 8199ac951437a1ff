#!/usr/bin/env python3
"""Captures what an RTSP server sends, for the RTSP fuzzer's seeds.

  rtsp-capture.py PORT OUTPUT_DIRECTORY

Against rtsp-server.py on PORT (open) and PORT + 1 (digest): DESCRIBE without credentials
on the secured port (a 401 and its challenges), then on the open port OPTIONS, DESCRIBE,
SETUP of the video over TCP (interleaved) and PLAY, then up to 64 KiB of the interleaved
RTP and RTCP. Writes connection.bin (every byte the open port sent), unauthorized.bin,
sdp.txt, headers.txt (the Transport and Session values) and challenges.txt.
"""
import socket
import sys

port, out = int(sys.argv[1]), sys.argv[2]


def answer(sock, request, received):
    """Sends `request`, reads one whole response; returns it and keeps every byte in `received`."""
    sock.sendall(request.encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise SystemExit("the server closed the connection")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    while len(rest) < length:
        rest += sock.recv(65536)
    # Bytes past this response (the first interleaved packets after PLAY) are kept too.
    received.append(head + b"\r\n\r\n" + rest)
    return head.decode(errors="replace"), rest[:length].decode(errors="replace")


def header(head, name):
    for line in head.split("\r\n")[1:]:
        key, _, value = line.partition(":")
        if key.strip().lower() == name.lower():
            return value.strip()
    return ""


secured = socket.create_connection(("127.0.0.1", port + 1), timeout=10)
unauthorized = []
head, _ = answer(secured, f"DESCRIBE rtsp://127.0.0.1:{port + 1}/video RTSP/1.0\r\nCSeq: 1\r\nAccept: application/sdp\r\n\r\n", unauthorized)
challenges = [line.partition(":")[2].strip() for line in head.split("\r\n")[1:] if line.lower().startswith("www-authenticate:")]
secured.close()

url = f"rtsp://127.0.0.1:{port}/video"
sock = socket.create_connection(("127.0.0.1", port), timeout=10)
received = []
answer(sock, f"OPTIONS {url} RTSP/1.0\r\nCSeq: 1\r\n\r\n", received)
head, sdp = answer(sock, f"DESCRIBE {url} RTSP/1.0\r\nCSeq: 2\r\nAccept: application/sdp\r\n\r\n", received)
base = header(head, "Content-Base") or url
control = next((line[len("a=control:"):].strip() for line in sdp.splitlines() if line.startswith("a=control:") and line.strip() != "a=control:*"), "")
track = control if control.startswith("rtsp://") else base.rstrip("/") + "/" + control
head, _ = answer(sock, f"SETUP {track} RTSP/1.0\r\nCSeq: 3\r\nTransport: RTP/AVP/TCP;unicast;interleaved=0-1\r\n\r\n", received)
transport, session = header(head, "Transport"), header(head, "Session")
answer(sock, f"PLAY {base} RTSP/1.0\r\nCSeq: 4\r\nSession: {session.split(';')[0]}\r\nRange: npt=0-\r\n\r\n", received)
streamed = b""
try:
    while len(streamed) < 65536:
        chunk = sock.recv(65536)
        if not chunk:
            break
        streamed += chunk
except socket.timeout:
    pass
sock.close()

with open(f"{out}/connection.bin", "wb") as f:
    f.write(b"".join(received) + streamed[:65536])
with open(f"{out}/unauthorized.bin", "wb") as f:
    f.write(b"".join(unauthorized))
with open(f"{out}/sdp.txt", "w") as f:
    f.write(sdp)
with open(f"{out}/headers.txt", "w") as f:
    f.write(f"{transport}\n{session}\nrtsp://viewer:s3cr%40t@127.0.0.1:{port + 1}/video\n")
with open(f"{out}/challenges.txt", "w") as f:
    f.write("\n".join(challenges) + "\n")
print(f"captured {len(b''.join(received)) + min(len(streamed), 65536)} bytes; {len(challenges)} challenges")
