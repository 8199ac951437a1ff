// Everything Reel's library does, for those who want all of it: the player core and the
// products beside it. Each product can be depended on alone (see the architecture page).
@_exported import ReelPlayer
@_exported import ReelRTP
@_exported import ReelEncoding
@_exported import ReelVAP
@_exported import ReelPanorama
