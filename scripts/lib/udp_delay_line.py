#!/usr/bin/env python3
"""A UDP delay line for the latency benchmark: every datagram that arrives on
127.0.0.1:IN_PORT leaves for 127.0.0.1:OUT_PORT exactly DELAY_MS later, in order.

It stands in for a protocol's fixed receive latency without the protocol (SRT's
`latency=20000` holds each packet 20 ms), so that a row through it shows what that
much delay alone costs on the machine running the benchmark.
    python3 udp_delay_line.py IN_PORT OUT_PORT DELAY_MS
"""
import collections
import select
import socket
import sys
import time

in_port, out_port, delay = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]) / 1000
receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
receiver.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
receiver.bind(("127.0.0.1", in_port))
sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
held = collections.deque()  # (time due, datagram), oldest first

while True:
    now = time.monotonic()
    while held and held[0][0] <= now:
        sender.sendto(held.popleft()[1], ("127.0.0.1", out_port))
    wait = held[0][0] - now if held else None
    if select.select([receiver], [], [], wait)[0]:
        datagram = receiver.recv(65536)
        held.append((time.monotonic() + delay, datagram))
