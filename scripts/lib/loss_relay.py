#!/usr/bin/env python3
"""A UDP relay that drops a seeded random share of RTP packets on the way, for the soak.

    loss_relay.py LISTEN_PORT TARGET_PORT LOSS SEED

Relays RTP from LISTEN_PORT to TARGET_PORT on 127.0.0.1 and RTCP (the next ports) whole.
On SIGTERM or SIGINT it prints what it forwarded and dropped. The test suite's relay
(ImpairmentRelay.swift) models more kinds of damage; the soak only needs steady loss.
"""
import random
import selectors
import signal
import socket
import sys

listen_port, target_port, loss, seed = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
chooser = random.Random(seed)
counts = {"forwarded": 0, "dropped": 0, "rtcp": 0}
running = True


def stop(*_):
    global running
    running = False


signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)

selector = selectors.DefaultSelector()
for offset in (0, 1):
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    sock.bind(("127.0.0.1", listen_port + offset))
    selector.register(sock, selectors.EVENT_READ, target_port + offset)
out = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)

while running:
    for key, _ in selector.select(timeout=0.5):
        try:
            data = key.fileobj.recv(65536)
        except InterruptedError:
            continue
        if key.data == target_port:
            if chooser.random() < loss:
                counts["dropped"] += 1
                continue
            counts["forwarded"] += 1
        else:
            counts["rtcp"] += 1
        out.sendto(data, ("127.0.0.1", key.data))

print("relay: forwarded {forwarded} RTP packets, dropped {dropped}, passed {rtcp} RTCP".format(**counts), flush=True)
