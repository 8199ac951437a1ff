/* The latency benchmark's UDP delay line in C: the same job as udp_delay_line.py (every
 * datagram that arrives on 127.0.0.1:IN_PORT leaves for 127.0.0.1:OUT_PORT DELAY_MS later,
 * in order), at a fraction of its cost, so that the two control rows show what the Python
 * line itself costs the machine.
 *   clang -O2 -o udp_delay_line udp_delay_line.c && ./udp_delay_line IN_PORT OUT_PORT DELAY_MS
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define HELD 4096          /* datagrams held at most: 20 ms of a 100 Mbit/s stream */
#define LARGEST 65536

struct datagram { long long due; int length; unsigned char *bytes; };

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static struct sockaddr_in loopback(int port) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((unsigned short)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return address;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s IN_PORT OUT_PORT DELAY_MS\n", argv[0]);
        return 2;
    }
    int in_port = atoi(argv[1]), out_port = atoi(argv[2]);
    long long delay = (long long)(atof(argv[3]) * 1e6);
    int receiver = socket(AF_INET, SOCK_DGRAM, 0), sender = socket(AF_INET, SOCK_DGRAM, 0);
    int buffer = 4 << 20;
    setsockopt(receiver, SOL_SOCKET, SO_RCVBUF, &buffer, sizeof buffer);
    struct sockaddr_in in = loopback(in_port), out = loopback(out_port);
    if (receiver < 0 || sender < 0 || bind(receiver, (struct sockaddr *)&in, sizeof in) != 0) {
        perror("udp_delay_line");
        return 1;
    }
    static struct datagram held[HELD];
    for (int i = 0; i < HELD; i++) held[i].bytes = malloc(LARGEST);
    int oldest = 0, count = 0;
    for (;;) {
        long long now = now_ns();
        while (count > 0 && held[oldest].due <= now) {
            sendto(sender, held[oldest].bytes, (size_t)held[oldest].length, 0, (struct sockaddr *)&out, sizeof out);
            oldest = (oldest + 1) % HELD;
            count--;
        }
        struct timespec wait, *timeout = NULL;
        if (count > 0) {
            long long left = held[oldest].due - now;
            wait.tv_sec = (time_t)(left / 1000000000LL);
            wait.tv_nsec = (long)(left % 1000000000LL);
            timeout = &wait;
        }
        struct pollfd readable = { .fd = receiver, .events = POLLIN };
        if (ppoll(&readable, 1, timeout, NULL) <= 0) continue;
        if (count == HELD) {   /* full: the oldest goes now rather than being overwritten */
            sendto(sender, held[oldest].bytes, (size_t)held[oldest].length, 0, (struct sockaddr *)&out, sizeof out);
            oldest = (oldest + 1) % HELD;
            count--;
        }
        struct datagram *slot = &held[(oldest + count) % HELD];
        ssize_t length = recv(receiver, slot->bytes, LARGEST, 0);
        if (length < 0) continue;
        slot->length = (int)length;
        slot->due = now_ns() + delay;
        count++;
    }
}
