// The player core's face: the media model (ReelCore), FFmpeg's and GStreamer's adapters
// and the text rasterizer, whose public types the player's API uses.
@_exported import ReelCore
@_exported import ReelFFmpeg
@_exported import ReelGStreamer
@_exported import ReelText
