// The public face of Reel: the core media model and the FFmpeg-backed inputs and
// decoders, with the async facades built on them.
@_exported import ReelCore
@_exported import ReelFFmpeg
@_exported import ReelGStreamer
@_exported import ReelText
