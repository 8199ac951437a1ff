/// When pictures are deinterlaced (mpv's `--deinterlace`).
public enum DeinterlaceSetting: String, Sendable, CaseIterable {
    /// From the first picture the decoder flags as interlaced (field-coded), and then only
    /// the interlaced ones: a progressive input is left untouched, as mpv's `auto` leaves it.
    case auto
    /// Every picture, flagged or not.
    case yes
    /// Never.
    case no
}

/// What a deinterlacer makes of each interlaced picture.
public enum DeinterlaceMode: String, Sendable, CaseIterable {
    /// One picture per field, at twice the frame rate (bwdif's `send_field`): motion as
    /// smooth as the camera took it.
    case field
    /// One picture per frame (bwdif's `send_frame`).
    case frame
}
