/// A picture subtitle (PGS from Blu-ray, DVB, DVD's VobSub) as its decoder gives it:
/// paletted rectangles on the subtitle's canvas, shown from its start until its end or
/// until the next picture of its track.
public struct SubtitlePicture: Sendable, Equatable {
    /// One rectangle: a palette index a pixel.
    public struct Rect: Sendable, Equatable {
        /// The top left corner on the canvas, in pixels.
        public var x: Int
        /// See ``x``.
        public var y: Int
        /// The size in pixels.
        public var width: Int
        /// See ``width``.
        public var height: Int
        /// A palette index a pixel, row after row (`width` a row).
        public var indices: [UInt8]
        /// The colours, `0xAARRGGBB` with straight (not premultiplied) alpha, as FFmpeg gives them.
        public var palette: [UInt32]

        /// A rectangle of `indices` into `palette` at (`x`, `y`).
        public init(x: Int, y: Int, width: Int, height: Int, indices: [UInt8], palette: [UInt32]) {
            precondition(indices.count == width * height, "indices must hold width × height values")
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.indices = indices
            self.palette = palette
        }
    }

    /// When it appears, in milliseconds on the track's timeline.
    public var startMilliseconds: Int64
    /// When it goes; nil when the next picture (an empty one clears) ends it.
    public var endMilliseconds: Int64?
    /// The canvas the rectangles are placed on (the video's size for most tracks); 0 when unknown.
    public var canvasWidth: Int
    /// See ``canvasWidth``.
    public var canvasHeight: Int
    /// What shows; none clears the screen.
    public var rects: [Rect]

    /// A picture shown from `startMilliseconds` to `endMilliseconds` (or the next picture).
    public init(startMilliseconds: Int64, endMilliseconds: Int64?, canvasWidth: Int, canvasHeight: Int, rects: [Rect]) {
        self.startMilliseconds = startMilliseconds
        self.endMilliseconds = endMilliseconds
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.rects = rects
    }

    /// The bytes its rectangles hold, for bounding a track's memory.
    public var byteCount: Int { rects.reduce(0) { $0 + $1.indices.count + $1.palette.count * 4 } }
}

/// A picture subtitle track's pictures in order of their start, and which one shows when.
public struct SubtitlePictureTimeline: Sendable {
    /// The pictures, by start.
    public private(set) var pictures: [SubtitlePicture] = []

    /// An empty timeline.
    public init() {}

    /// Adds `picture`; one with the same start (read again after a seek) replaces it.
    public mutating func add(_ picture: SubtitlePicture) {
        let index = pictures.partitioningIndex { $0.startMilliseconds >= picture.startMilliseconds }
        if index < pictures.count, pictures[index].startMilliseconds == picture.startMilliseconds {
            pictures[index] = picture
        } else {
            pictures.insert(picture, at: index)
        }
    }

    /// The picture on screen at `milliseconds`: the last to start at or before then, unless
    /// it has ended or clears the screen.
    public func showing(at milliseconds: Int64) -> SubtitlePicture? {
        let index = pictures.partitioningIndex { $0.startMilliseconds > milliseconds }
        guard index > 0 else { return nil }
        let picture = pictures[index - 1]
        if let end = picture.endMilliseconds, milliseconds >= end { return nil }
        return picture.rects.isEmpty ? nil : picture
    }
}

extension Array {
    /// The first index whose element satisfies `belongsAfter`, for an array ordered so that
    /// those that do all come after those that do not.
    func partitioningIndex(where belongsAfter: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if belongsAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
