import CLibass
import Foundation
import Logging
import ReelCore

/// libass for one input: its library (with the input's attached fonts), its renderer, and
/// the text subtitle tracks made from it, which share the fonts.
///
/// Set up as FFmpeg's `subtitles` filter sets libass up (the attached fonts added first,
/// then the system's through fontconfig; the frame size the video's), so that both draw
/// the same text. Safe to use from several threads: a reader adds events while the
/// display renders.
public final class ASSRenderer: @unchecked Sendable {
    private let library: OpaquePointer
    /// Made at the first render: finding the system's fonts takes a moment, and an input
    /// with many subtitle tracks usually shows one or none.
    private var renderer: OpaquePointer?
    fileprivate let lock = NSLock()
    private var frameSize = (width: 0, height: 0)
    private var fontScale = 1.0

    /// A renderer that draws with `fonts` (name and bytes: Matroska's attached fonts)
    /// before the system's.
    public init(fonts: [(name: String, data: [UInt8])] = []) throws {
        guard let library = ass_library_init() else { throw SubtitleError.libassFailed("cannot initialise libass") }
        reel_ass_set_message_sink(library, assMessageSink)
        for font in fonts {
            font.data.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { ass_add_font(library, font.name, $0.baseAddress, Int32(clamping: $0.count)) }
            }
        }
        self.library = library
    }

    deinit {
        if let renderer { ass_renderer_done(renderer) }
        ass_library_done(library)
    }

    /// A new, empty track whose events refer to `header` (an ASS script's `[Script Info]`
    /// and `[V4+ Styles]` sections, as a decoder gives it).
    public func makeTrack(header: String) throws -> ASSTrack {
        guard let track = lock.withLock({ ass_new_track(library) }) else { throw SubtitleError.libassFailed("cannot make a libass track") }
        var bytes = Array(header.utf8CString)
        lock.withLock {
            bytes.withUnsafeMutableBufferPointer { ass_process_codec_private(track, $0.baseAddress, Int32(clamping: $0.count - 1)) }
        }
        return ASSTrack(track: track, renderer: self)
    }

    /// What `track` shows at `milliseconds` on a `width`×`height` picture, text scaled by
    /// `scale` (mpv's `--sub-scale`); empty when nothing does.
    public func render(_ track: ASSTrack, atMilliseconds milliseconds: Int64, width: Int, height: Int, scale: Double = 1) -> [SubtitleMask] {
        lock.withLock {
            guard let renderer = preparedRenderer() else { return [] }
            if frameSize != (width, height) {
                ass_set_frame_size(renderer, Int32(clamping: width), Int32(clamping: height))
                ass_set_storage_size(renderer, Int32(clamping: width), Int32(clamping: height))
                frameSize = (width, height)
            }
            if fontScale != scale {
                ass_set_font_scale(renderer, scale)
                fontScale = scale
            }
            var masks: [SubtitleMask] = []
            var image = ass_render_frame(renderer, track.track, milliseconds, nil)
            while let current = image?.pointee {
                image = current.next
                if let mask = Self.mask(current) { masks.append(mask) }
            }
            return masks
        }
    }

    private func preparedRenderer() -> OpaquePointer? {
        if let renderer { return renderer }
        guard let made = ass_renderer_init(library) else { return nil }
        ass_set_fonts(made, nil, nil, Int32(ASS_FONTPROVIDER_AUTODETECT.rawValue), nil, 1)
        renderer = made
        return made
    }

    /// One of libass's images as a mask; its colour is RRGGBBAA with AA a transparency.
    private static func mask(_ image: ASS_Image) -> SubtitleMask? {
        let width = Int(image.w), height = Int(image.h), stride = Int(image.stride)
        guard width > 0, height > 0, let bitmap = image.bitmap else { return nil }
        var coverage = [UInt8](repeating: 0, count: width * height)
        coverage.withUnsafeMutableBufferPointer { target in
            for row in 0..<height { (target.baseAddress! + row * width).update(from: bitmap + row * stride, count: width) }
        }
        let color = image.color
        return SubtitleMask(x: Int(image.dst_x), y: Int(image.dst_y), width: width, height: height, coverage: coverage,
                            red: UInt8(color >> 24), green: UInt8((color >> 16) & 0xFF), blue: UInt8((color >> 8) & 0xFF),
                            opacity: 255 - UInt8(color & 0xFF))
    }
}

/// A text subtitle track in libass: its styles and the events added so far.
public final class ASSTrack: @unchecked Sendable {
    fileprivate let track: UnsafeMutablePointer<ASS_Track>
    private let renderer: ASSRenderer

    fileprivate init(track: UnsafeMutablePointer<ASS_Track>, renderer: ASSRenderer) {
        self.track = track
        self.renderer = renderer
    }

    deinit { renderer.lock.withLock { ass_free_track(track) } }

    /// Adds an event; one whose read order was added already (read again after a seek)
    /// is skipped by libass.
    public func add(_ event: TextSubtitleEvent) {
        var bytes = Array(event.dialogue.utf8CString)
        renderer.lock.withLock {
            bytes.withUnsafeMutableBufferPointer {
                ass_process_chunk(track, $0.baseAddress, Int32(clamping: $0.count - 1), event.startMilliseconds, event.durationMilliseconds)
            }
        }
    }
}

/// libass's messages, to swift-log (label `reel.libass`): its warnings say which font it
/// used instead of a missing one.
private func assMessageSink(_ level: Int32, _ line: UnsafePointer<CChar>?) {
    guard let line else { return }
    let message = Logger.Message(stringLiteral: String(cString: line).trimmingCharacters(in: .whitespacesAndNewlines))
    switch level {
    case ...1: assLogger.error(message)
    case 2...3: assLogger.warning(message)
    case 4...5: assLogger.debug(message)
    default: assLogger.trace(message)
    }
}

private let assLogger = Logger(label: "reel.libass")
