# An RTSP proxy that asks its clients for digest credentials itself (the RFC 2069 form
# gst-rtsp-server and most cameras use), checks each answer with hashlib, and relays the
# requests that pass, without their credentials, to an RTSP server that wants none, over
# one TCP connection per client (media interleaved in it). Its nonce goes stale twice, as a
# camera's does when it renews nonces: at the first SETUP, and at the first request after
# PLAY is answered (a keep-alive). Prints "ready", then a line per request:
# METHOD NONCE refused|stale|verified.
#   python3 rtsp-stale-nonce-proxy.py PORT UPSTREAM_PORT USER PASSWORD
import hashlib
import itertools
import re
import socket
import sys
import threading

port, upstream_port, user, password = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
realm = "stale nonce proxy"
nonces = (f"nonce{n}" for n in itertools.count(1))


def md5(text):
    return hashlib.md5(text.encode()).hexdigest()


def read_message(stream):
    """The next interleaved frame or RTSP message, whole, as bytes; None at the end."""
    first = stream.read(1)
    if not first:
        return None
    if first == b"$":
        head = stream.read(3)
        return first + head + stream.read(int.from_bytes(head[1:3], "big"))
    message = first + stream.readline()
    while True:
        line = stream.readline()
        if not line:
            return None
        message += line
        if line in (b"\r\n", b"\n"):
            break
    length = re.search(rb"(?im)^content-length:\s*(\d+)", message)
    return message + (stream.read(int(length.group(1))) if length else b"")


def digest_fields(message):
    header = re.search(r'(?im)^authorization:\s*digest\s+(.*)$', message)
    return dict(re.findall(r'(\w+)="?([^",]*)"?', header.group(1))) if header else None


def serve(client):
    upstream = socket.create_connection(("127.0.0.1", upstream_port))
    writing = threading.Lock()

    def to_client(data):
        with writing:
            client.sendall(data)

    def relay_answers():
        stream = upstream.makefile("rb")
        while (message := read_message(stream)) is not None:
            to_client(message)
        client.shutdown(socket.SHUT_RDWR)

    threading.Thread(target=relay_answers, daemon=True).start()
    stream = client.makefile("rb")
    nonce = next(nonces)
    stale_at_setup, stale_after_play, played = True, True, False
    while (message := read_message(stream)) is not None:
        if message.startswith(b"$"):
            upstream.sendall(message)
            continue
        text = message.decode("latin-1")
        method = text.split(" ", 1)[0]
        sequence = re.search(r"(?im)^cseq:\s*(\d+)", text).group(1)
        fields = digest_fields(text)
        answer = fields and md5(f"{md5(f'{user}:{realm}:{password}')}:{fields.get('nonce')}:{md5(method + ':' + fields.get('uri', ''))}")
        verdict = "verified"
        if not fields or fields.get("username") != user or fields.get("response") != answer:
            verdict = "refused"
        elif fields.get("nonce") != nonce:
            verdict = "stale"
        elif (method == "SETUP" and stale_at_setup) or (played and stale_after_play):
            stale_at_setup = stale_at_setup and method != "SETUP"
            stale_after_play = stale_after_play and not played
            nonce = next(nonces)
            verdict = "stale"
        print(method, fields.get("nonce") if fields else "-", verdict, flush=True)
        if verdict == "verified":
            played = played or method == "PLAY"
            upstream.sendall(re.sub(rb"(?im)^authorization:[^\r\n]*\r?\n", b"", message))
        else:
            stale = ", stale=TRUE" if verdict == "stale" else ""
            to_client((f"RTSP/1.0 401 Unauthorized\r\nCSeq: {sequence}\r\n"
                       f"WWW-Authenticate: Digest realm=\"{realm}\", nonce=\"{nonce}\"{stale}\r\n\r\n").encode())
    upstream.close()


listener = socket.create_server(("127.0.0.1", port))
print("ready", flush=True)
while True:
    connection, _ = listener.accept()
    threading.Thread(target=serve, args=(connection,), daemon=True).start()
