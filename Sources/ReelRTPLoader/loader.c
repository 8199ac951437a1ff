#include "ReelRTPLoader.h"

// Swift has no load-time initialisers; a C constructor gives ReelRTP one, so that linking
// the product is all it takes for `reel play x.sdp` and `Player.open("x.sdp")` to reach
// Reel's RTP receiver (the player core never imports ReelRTP).
__attribute__((constructor)) static void reel_rtp_load(void) {
    reel_rtp_register_sources();
}
