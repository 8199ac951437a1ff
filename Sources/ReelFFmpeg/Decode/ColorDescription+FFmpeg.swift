import CFFmpeg
import ReelCore

extension ColorDescription {
    /// A description from FFmpeg's values, which are also ITU-T H.273's code points (what
    /// GStreamer's `gst_video_*_to_iso` give); a value FFmpeg does not name is unspecified.
    package init(_ matrix: AVColorSpace, _ range: AVColorRange, _ primaries: AVColorPrimaries, _ transfer: AVColorTransferCharacteristic) {
        self.init(matrix: av_color_space_name(matrix).flatMap { ColorMatrix(rawValue: String(cString: $0)) } ?? .unspecified,
                  range: av_color_range_name(range).flatMap { ColorRange(rawValue: String(cString: $0)) } ?? .unspecified,
                  primaries: av_color_primaries_name(primaries).flatMap { ColorPrimaries(rawValue: String(cString: $0)) } ?? .unspecified,
                  transfer: av_color_transfer_name(transfer).flatMap { ColorTransfer(rawValue: String(cString: $0)) } ?? .unspecified)
    }

    /// A description from ITU-T H.273 code points (FFmpeg's values; GStreamer's
    /// `gst_video_*_to_iso`) and a range of 0 (unknown), 1 (limited) or 2 (full).
    package init(codePoints matrix: UInt32, range: UInt32, primaries: UInt32, transfer: UInt32) {
        self.init(AVColorSpace(rawValue: matrix), AVColorRange(rawValue: range), AVColorPrimaries(rawValue: primaries),
                  AVColorTransferCharacteristic(rawValue: transfer))
    }

    /// The description in an `AVFrame`'s fields, for filters (zscale) that read them.
    func describe(_ frame: UnsafeMutablePointer<AVFrame>) {
        func code(_ found: Int32) -> UInt32? { found >= 0 ? UInt32(found) : nil }
        frame.pointee.colorspace = code(av_color_space_from_name(matrix.rawValue)).map(AVColorSpace.init(rawValue:)) ?? AVCOL_SPC_UNSPECIFIED
        frame.pointee.color_range = code(av_color_range_from_name(range.rawValue)).map(AVColorRange.init(rawValue:)) ?? AVCOL_RANGE_UNSPECIFIED
        frame.pointee.color_primaries = code(av_color_primaries_from_name(primaries.rawValue)).map(AVColorPrimaries.init(rawValue:)) ?? AVCOL_PRI_UNSPECIFIED
        frame.pointee.color_trc = code(av_color_transfer_from_name(transfer.rawValue)).map(AVColorTransferCharacteristic.init(rawValue:)) ?? AVCOL_TRC_UNSPECIFIED
    }
}
