#ifndef REEL_CSRTP_SHIM_H
#define REEL_CSRTP_SHIM_H
#include <srtp2/srtp.h>
#endif
