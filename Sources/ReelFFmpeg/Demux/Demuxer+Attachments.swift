import CFFmpeg

extension Demuxer {
    /// The fonts attached to the input (Matroska's attachments: what its ASS subtitles are
    /// styled with), by file name; other attachments are left out.
    public func attachedFonts() -> [(name: String, data: [UInt8])] {
        (0..<Int(context.pointee.nb_streams)).compactMap { index -> (name: String, data: [UInt8])? in
            guard let stream = stream(at: index), let parameters = stream.pointee.codecpar,
                  parameters.pointee.codec_type == AVMEDIA_TYPE_ATTACHMENT,
                  let data = parameters.pointee.extradata, parameters.pointee.extradata_size > 0 else { return nil }
            let tag = { (key: String) in av_dict_get(stream.pointee.metadata, key, nil, 0).map { String(cString: $0.pointee.value) } }
            let mimeType = tag("mimetype")?.lowercased() ?? ""
            let isFont = Self.fontMimeTypes.contains(mimeType) || parameters.pointee.codec_id == AV_CODEC_ID_TTF || parameters.pointee.codec_id == AV_CODEC_ID_OTF
            guard isFont else { return nil }
            return (tag("filename") ?? "font\(index)", Array(UnsafeBufferPointer(start: data, count: Int(parameters.pointee.extradata_size))))
        }
    }

    /// The MIME types fonts are attached with, as FFmpeg's `subtitles` filter lists them.
    private static let fontMimeTypes: Set<String> = [
        "font/ttf", "font/otf", "font/sfnt", "font/woff", "font/woff2", "application/font-sfnt", "application/font-woff",
        "application/x-truetype-font", "application/vnd.ms-opentype", "application/x-font-ttf",
    ]
}
