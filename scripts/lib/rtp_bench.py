"""Helpers for scripts/bench-rtp.sh: catch the RTP packets a sender emits into an RFC 4571
framed file, and measure a receiver's CPU time while a sender streams to it."""
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time


def bind(port):
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, 33, 64 << 20)  # SO_RCVBUFFORCE (root)
    except OSError:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 << 20)
    sock.bind(("127.0.0.1", port))
    return sock


def capture(stream, out, port):
    sock = bind(port)
    sender = subprocess.Popen(["ffmpeg", "-v", "error", "-nostdin", "-re", "-i", stream, "-c", "copy",
                               "-f", "rtp", f"rtp://127.0.0.1:{port}"], stdout=subprocess.DEVNULL)
    sock.settimeout(3)
    count, last, gaps = 0, None, 0
    with open(out, "wb") as f:
        while True:
            try:
                data = sock.recv(65536)
            except socket.timeout:
                break
            seq = int.from_bytes(data[2:4], "big")
            if last is not None and seq != (last + 1) & 0xFFFF:
                gaps += 1
            last = seq
            f.write(len(data).to_bytes(2, "big") + data)
            count += 1
    sender.wait()
    if gaps:
        sys.exit(f"capture: {gaps} gaps in the sequence numbers")
    print(count)


def receive_cpu(port, stream, receiver, loops=0, first_second=False):
    """CPU seconds (user + system) the receiver spent while the stream was sent to it
    `loops` + 1 times; with `first_second`, only its first second once (what starting,
    probing and exiting cost)."""
    errors = tempfile.TemporaryFile()
    child = subprocess.Popen(receiver, stdout=subprocess.DEVNULL, stderr=errors)
    deadline = time.time() + 20
    while time.time() < deadline:
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            probe.bind(("127.0.0.1", port))
            probe.close()
            time.sleep(0.05)
        except OSError:
            probe.close()
            break
    time.sleep(0.3)
    length = ["-t", "1"] if first_second else ["-stream_loop", str(loops)]
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-re"] + length + ["-i", stream, "-c", "copy", "-f", "rtp",
                    f"rtp://127.0.0.1:{port}"], check=True, stdout=subprocess.DEVNULL)
    time.sleep(1)
    # Not Popen.send_signal: it reaps a child that already exited, and wait4 would lose its usage.
    exited = os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    if exited is None:
        os.kill(child.pid, signal.SIGINT)
    _, status, usage = os.wait4(child.pid, 0)
    # ffmpeg ends with 255 on SIGINT: only a receiver gone before it counts as a failure.
    if exited is not None:
        errors.seek(0)
        sys.exit(f"the receiver ended by itself ({status}): {errors.read().decode(errors='replace')[-2000:]}")
    print(f"{usage.ru_utime + usage.ru_stime:.4f}")


if __name__ == "__main__":
    if sys.argv[1] == "capture":
        capture(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        receive_cpu(int(sys.argv[2]), sys.argv[3], sys.argv[5:], int(sys.argv[4]), first_second=sys.argv[1] == "first-second")
