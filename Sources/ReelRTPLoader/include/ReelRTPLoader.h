// Registers ReelRTP's inputs with the player when the library is loaded: defined in Swift
// (ReelRTP, RTPSourceRegistration.swift), called by a constructor in loader.c.
void reel_rtp_register_sources(void);
