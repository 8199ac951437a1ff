import Foundation
import ReelCore
import ReelFFmpeg
import ReelSubtitles

/// The subtitles of one playing input: every subtitle track it has and the files loaded
/// beside it, the one shown, and the drawing of it into the frames shown: text through
/// libass, pictures (PGS, DVB, VobSub) blended as FFmpeg's `overlay` filter blends them.
///
/// Every subtitle stream is read, not only the shown one's: decoding subtitles costs next
/// to nothing, and a switch then has the new track's events at once. A local input is
/// scanned for them from start to end on a thread of its own, beside playback, as FFmpeg's
/// `subtitles` filter reads them all first: a start or a seek into the middle of an event
/// then shows it (the packets before the keyframe landed on are never read by the player).
/// A network input's events come as the reader reads them. Subtitle files are read whole
/// when the input opens.
final class SubtitleLayer: @unchecked Sendable {
    /// The input's subtitle tracks, then the files'.
    let tracks: [Track]
    private let renderer: ASSRenderer
    /// The input's subtitle streams by index: their decoders (read thread only) and, for
    /// text, their libass tracks.
    private let embedded: [Int: (decoder: SubtitleDecoder, text: ASSTrack?)]
    /// The files' tracks, by track id.
    private let external: [String: ASSTrack]
    /// Subtitle times are on the input's timeline; positions start at its start time.
    private let startMilliseconds: Int64
    private let lock = NSLock()
    private var shownTrack: Track?
    /// The picture streams' pictures, by stream index.
    private var pictures: [Int: SubtitlePictureTimeline] = [:]
    /// Counts the events added: a paused picture is drawn again when it changes.
    private var eventsAdded = 0
    /// Set while a scan of the whole input supplies the events; the reader's are then not needed.
    private var scanner: Thread?
    private let scanInterrupt = InterruptController(timeout: nil)
    /// Converts frames to RGB to draw into them; the display thread's alone.
    private let converter = PictureConverter()

    /// The subtitles of `demuxer`'s input and of `files`, with `request` choosing the one
    /// shown; nil when there are none at all.
    init?(demuxer: Demuxer?, info: MediaInfo, files: [String], request: TrackRequest, startTime: Double, options: DemuxOptions = DemuxOptions()) throws {
        let own = Track.tracks(of: info).filter { $0.type == .subtitle }
        guard !own.isEmpty || !files.isEmpty else { return nil }
        let renderer = try ASSRenderer(fonts: demuxer?.attachedFonts() ?? [])
        var embedded: [Int: (decoder: SubtitleDecoder, text: ASSTrack?)] = [:]
        if let demuxer {
            for track in own {
                // A format this FFmpeg cannot decode is listed, not shown.
                guard let decoder = try? SubtitleDecoder(demuxer: demuxer, streamIndex: track.streamIndex) else { continue }
                embedded[track.streamIndex] = (decoder, decoder.isText ? try renderer.makeTrack(header: decoder.header) : nil)
            }
        }
        var tracks = own
        var external: [String: ASSTrack] = [:]
        for file in files {
            let (track, events) = try Self.read(file, number: tracks.count + 1, into: renderer)
            external[track.id] = events
            tracks.append(track)
        }
        self.tracks = tracks
        self.renderer = renderer
        self.embedded = embedded
        self.external = external
        startMilliseconds = Int64((startTime * 1000).rounded())
        shownTrack = request.chooseSubtitle(among: tracks.filter { embedded[$0.streamIndex] != nil || $0.file != nil })
        if let url = demuxer?.url, !embedded.isEmpty, Self.isLocal(url) { startScanning(url, options: options) }
    }

    private static func isLocal(_ url: String) -> Bool { !url.contains("://") || url.hasPrefix("file:") }

    /// Reads a text subtitle file whole into a track of `renderer`.
    private static func read(_ file: String, number: Int, into renderer: ASSRenderer) throws -> (Track, ASSTrack) {
        let source = try Demuxer(url: file)
        guard let index = source.bestStream(of: .subtitle) else { throw SubtitleFileError(file: file, reason: "it holds no subtitles") }
        let decoder: SubtitleDecoder
        do { decoder = try SubtitleDecoder(demuxer: source, streamIndex: index) } catch { throw SubtitleFileError(file: file, reason: "\(error)") }
        guard decoder.isText else { throw SubtitleFileError(file: file, reason: "its \(decoder.codecName) subtitles are pictures; files of text are loaded") }
        let events = try renderer.makeTrack(header: decoder.header)
        while let packet = try source.readPacket() {
            guard packet.streamIndex == index else { continue }
            for event in try decoder.decode(packet) { events.add(event) }
        }
        let stream = source.info.streams.first { $0.index == index }
        let track = Track(type: .subtitle, number: number, streamIndex: index, codec: decoder.codecName, language: stream?.language,
                          title: (file as NSString).lastPathComponent, isDefault: false, isForced: false, file: file)
        return (track, events)
    }

    // MARK: Reading

    /// Reads every packet of the subtitle streams from a second demuxer of the same file,
    /// with decoders of its own, until the end or ``stop()``.
    private func startScanning(_ url: String, options: DemuxOptions) {
        let streams = Set(embedded.keys)
        let thread = Thread { [self] in
            do {
                let source = try Demuxer(url: url, options: options, interrupt: scanInterrupt)
                source.discardAll(except: streams)
                var decoders: [Int: SubtitleDecoder] = [:]
                for index in streams { decoders[index] = try SubtitleDecoder(demuxer: source, streamIndex: index) }
                while !scanInterrupt.isCancelled, let packet = try source.readPacket() {
                    guard let decoder = decoders[packet.streamIndex] else { continue }
                    try add(packet, decodedBy: decoder)
                }
            } catch {
                // A damaged input: what was read stays; the player reports the damage itself.
            }
        }
        thread.name = "reel.subtitles.scan"
        thread.qualityOfService = .utility
        scanner = thread
        thread.start()
    }

    /// Ends the scan (the session stops).
    func stop() { scanInterrupt.cancel() }

    /// Takes a packet the reader read (the events of a network input's subtitle streams). Read thread.
    func take(_ packet: Packet) {
        guard scanner == nil, let decoder = embedded[packet.streamIndex]?.decoder else { return }
        try? add(packet, decodedBy: decoder)
    }

    /// After a seek: a partly read event is dropped.
    func flushDecoders() {
        for stream in embedded.values { stream.decoder.flush() }
    }

    /// Decodes `packet` and keeps what it holds, moved onto the position timeline.
    private func add(_ packet: Packet, decodedBy decoder: SubtitleDecoder) throws {
        if let text = embedded[packet.streamIndex]?.text {
            let events = try decoder.decode(packet)
            for var event in events {
                event.startMilliseconds -= startMilliseconds
                text.add(event)
            }
            if !events.isEmpty { lock.withLock { eventsAdded += events.count } }
        } else if var picture = try decoder.decodePicture(packet) {
            picture.startMilliseconds -= startMilliseconds
            picture.endMilliseconds = picture.endMilliseconds.map { $0 - startMilliseconds }
            lock.withLock {
                pictures[packet.streamIndex, default: SubtitlePictureTimeline()].add(picture)
                eventsAdded += 1
            }
        }
    }

    // MARK: Showing

    /// The track shown, if any.
    var shown: Track? { lock.withLock { shownTrack } }

    /// What decides the drawing besides the time and `settings`: the track shown and the
    /// events known.
    func look(_ settings: SubtitleSettings) -> SubtitleLook {
        lock.withLock { SubtitleLook(settings: settings, track: shownTrack?.id, events: eventsAdded) }
    }

    /// Whether `track` can be shown (one this FFmpeg decodes).
    func canShow(_ track: Track) -> Bool {
        track.file != nil ? external[track.id] != nil : embedded[track.streamIndex] != nil
    }

    /// Shows `track` (one of ``tracks``), or none.
    func show(_ track: Track?) throws {
        if let track, !canShow(track) { throw TrackError.cannotShowSubtitles(track.description) }
        lock.withLock { shownTrack = track }
    }

    /// `frame` with the shown track's subtitles at `position` (seconds from the input's
    /// start) drawn in: a new RGB frame when any show, `frame` itself otherwise. Text is
    /// drawn at the frame's size as FFmpeg's `subtitles` filter draws it. Display thread.
    func draw(into frame: VideoFrame, at position: Double, settings: SubtitleSettings) -> VideoFrame {
        guard settings.visible, let track = shown else { return frame }
        let milliseconds = Int64(((position - settings.delay) * 1000).rounded())
        if let text = track.file != nil ? external[track.id] : embedded[track.streamIndex]?.text {
            let masks = renderer.render(text, atMilliseconds: milliseconds, width: frame.width, height: frame.height, scale: settings.scale)
            guard !masks.isEmpty, let (drawn, plane) = rgbCopy(of: frame) else { return frame }
            SubtitleCompositor.blend(masks, into: plane, width: frame.width, height: frame.height, layout: .rgb24)
            return drawn
        }
        guard let picture = lock.withLock({ pictures[track.streamIndex]?.showing(at: milliseconds) }),
              let (drawn, plane) = rgbCopy(of: frame) else { return frame }
        SubtitleCompositor.blend(picture, into: plane, width: frame.width, height: frame.height, layout: .rgb24)
        return drawn
    }

    /// `frame` converted to RGB24 into memory of its own, to draw into.
    ///
    /// RGB24: libswscale's accurate conversion to it is the one FFmpeg's filters make (its
    /// BGRA output here differed from theirs by a level or two).
    private func rgbCopy(of frame: VideoFrame) -> (VideoFrame, PixelPlane)? {
        guard let converted = try? converter.convert(frame, to: Self.rgb24, quality: .accurate), let source = converted.planes.first else { return nil }
        let bytesPerRow = (frame.width * 3 + 63) / 64 * 64
        let storage = HeapStorage(byteCount: bytesPerRow * frame.height)
        let plane = PixelPlane(baseAddress: storage.bytes.baseAddress!, bytesPerRow: bytesPerRow, rowByteCount: frame.width * 3, rowCount: frame.height)
        for row in 0..<frame.height {
            plane.row(row).update(from: source.baseAddress.advanced(by: row * source.bytesPerRow).assumingMemoryBound(to: UInt8.self),
                                  count: plane.rowByteCount)
        }
        let copy = VideoFrame(width: frame.width, height: frame.height, pixelFormat: Self.rgb24,
                              planes: [PlaneView(baseAddress: plane.baseAddress, bytesPerRow: bytesPerRow, rowByteCount: plane.rowByteCount, rowCount: frame.height)],
                              color: ColorDescription(matrix: .rgb, range: .full), sampleAspectRatio: frame.sampleAspectRatio,
                              pts: frame.pts, duration: frame.duration, timeBase: frame.timeBase, isKeyframe: frame.isKeyframe, owner: storage)
        return (copy, plane)
    }

    private static let rgb24 = PixelFormat("rgb24")
}

/// What the viewer changes of subtitles while playing (`v`, `z`/`x`).
struct SubtitleSettings: Equatable {
    var visible = true
    var delay = 0.0
    var scale = 1.0
}

/// Everything that decides how subtitles are drawn on a frame besides its time.
struct SubtitleLook: Equatable {
    var settings: SubtitleSettings
    var track: String?
    var events: Int
}

/// A subtitle file that cannot be used.
public struct SubtitleFileError: Error, CustomStringConvertible, Equatable {
    /// The file's path.
    public var file: String
    /// Why, in words.
    public var reason: String

    public var description: String { "cannot use the subtitle file \(file): \(reason)" }
}
