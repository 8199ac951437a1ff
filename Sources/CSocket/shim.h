#ifndef REEL_CSOCKET_SHIM_H
#define REEL_CSOCKET_SHIM_H
// What Swift's Glibc module hides behind _GNU_SOURCE: recvmmsg (many datagrams in one
// system call) and eventfd (to wake a thread sleeping in poll).
#include <sys/socket.h>
#include <sys/eventfd.h>
#include <time.h>

struct reel_mmsghdr {
    struct msghdr msg_hdr;
    unsigned int msg_len;
};

extern int reel_recvmmsg(int fd, struct reel_mmsghdr *vector, unsigned int length, int flags,
                         struct timespec *timeout) __asm__("recvmmsg");

static inline int reel_eventfd_nonblocking(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
#endif
