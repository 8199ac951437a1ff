#ifndef REEL_CSOCKET_SHIM_H
#define REEL_CSOCKET_SHIM_H
// What Swift's Glibc module hides behind _GNU_SOURCE: recvmmsg (many datagrams in one
// system call) and eventfd (to wake a thread sleeping in poll); and the socket's drop
// count of SO_MEMINFO, which, unlike SO_RXQ_OVFL's, needs no later datagram to carry it.
// Also malloc_trim from <malloc.h>, which the Glibc module leaves out.
#include <malloc.h>
#include <sys/socket.h>
#include <linux/sock_diag.h>
#include <sys/eventfd.h>
#include <time.h>

struct reel_mmsghdr {
    struct msghdr msg_hdr;
    unsigned int msg_len;
};

extern int reel_recvmmsg(int fd, struct reel_mmsghdr *vector, unsigned int length, int flags,
                         struct timespec *timeout) __asm__("recvmmsg");

static inline int reel_eventfd_nonblocking(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

/// Datagrams the kernel dropped on their way into this socket (its buffer was full), or -1.
static inline long reel_socket_drops(int fd) {
    unsigned int memory[SK_MEMINFO_VARS] = {0};
    socklen_t length = sizeof(memory);
    if (getsockopt(fd, SOL_SOCKET, 55 /* SO_MEMINFO */, memory, &length) != 0 || length <= SK_MEMINFO_DROPS * sizeof(unsigned int)) return -1;
    return memory[SK_MEMINFO_DROPS];
}
#endif
