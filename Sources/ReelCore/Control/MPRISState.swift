/// What the MPRIS interface `org.mpris.MediaPlayer2.Player` says about a player, worked
/// out from the player's state: the properties, which of them changed (for
/// `PropertiesChanged`), and what a method call asks for.
///
/// MPRIS is the D-Bus interface desktop media keys, panels and `playerctl` use
/// (https://specifications.freedesktop.org/mpris-spec/latest/).
public struct MPRISState: Sendable, Equatable {
    /// `Playing`, `Paused` or `Stopped`.
    public var playbackStatus = "Stopped"
    /// Speed, 1 normal.
    public var rate = 1.0
    /// Loudness, 0 to 1.
    public var volume = 1.0
    /// The file or URL playing; nil when none.
    public var url: String?
    /// The title the container gives, if any.
    public var title: String?
    /// Seconds; nil for a live input or an unknown length.
    public var duration: Double?
    /// Which file this is, counting from 1 as files are opened (the track id's number).
    public var trackNumber = 0
    /// Whether a playlist item follows.
    public var canGoNext = false
    /// Whether a playlist item comes before.
    public var canGoPrevious = false
    /// Whether the input can be seeked (a file; not a live stream).
    public var canSeek = false
    /// The lowest and highest speed the player plays at.
    public var rates: ClosedRange<Double> = 0.5...2

    /// A state of nothing playing.
    public init() {}

    /// The track id MPRIS clients send back with `SetPosition`.
    public var trackID: String {
        trackNumber > 0 ? "/org/mpris/MediaPlayer2/Reel/Track/\(trackNumber)" : "/org/mpris/MediaPlayer2/TrackList/NoTrack"
    }

    /// The `Metadata` dictionary: the track id, the length in microseconds, the title
    /// (the container's, else the file's name) and the URL.
    public var metadata: [String: DBusValue] {
        var fields: [String: DBusValue] = ["mpris:trackid": .objectPath(trackID)]
        guard let url else { return fields }
        fields["xesam:url"] = .string(url.hasPrefix("/") ? "file://" + url : url)
        fields["xesam:title"] = .string(title ?? url.split(separator: "/").last.map(String.init) ?? url)
        if let duration, duration.isFinite, duration > 0 { fields["mpris:length"] = .int64(Int64(duration * 1e6)) }
        return fields
    }

    /// The player interface's properties but `Position`, which is read when asked for and
    /// never signalled as changed (the spec's rule: clients extrapolate it).
    public var properties: [String: DBusValue] {
        let playing = url != nil
        return [
            "PlaybackStatus": .string(playbackStatus), "Rate": .double(rate), "Volume": .double(volume), "Metadata": .dictionary(metadata),
            "MinimumRate": .double(rates.lowerBound), "MaximumRate": .double(rates.upperBound),
            "CanGoNext": .bool(canGoNext), "CanGoPrevious": .bool(canGoPrevious), "CanPlay": .bool(playing), "CanPause": .bool(playing),
            "CanSeek": .bool(canSeek), "CanControl": .bool(true),
        ]
    }

    /// The properties whose values differ from `previous`'s: what `PropertiesChanged` carries.
    public func changes(since previous: MPRISState) -> [String: DBusValue] {
        let (old, new) = (previous.properties, properties)
        return new.filter { old[$0.key] != $0.value }
    }
}

/// What a call on `org.mpris.MediaPlayer2.Player` or `org.mpris.MediaPlayer2` asks the
/// player to do.
public enum MPRISCall: Sendable, Equatable {
    /// Start or go on playing.
    case play
    /// Pause.
    case pause
    /// Pause when playing, play when paused.
    case playPause
    /// Stop playback (the player then quits, as mpv's plugin has it).
    case stop
    /// The next playlist item.
    case next
    /// The playlist item before.
    case previous
    /// Move by this many seconds (MPRIS sends microseconds).
    case seek(by: Double)
    /// Move to this many seconds from the start, if the track is still `trackID`.
    case setPosition(trackID: String, seconds: Double)
    /// Play this file or URL instead.
    case openURI(String)
    /// Quit the player.
    case quit
    /// Bring the window to the front (a player that cannot says so: `CanRaise` false).
    case raise

    /// The call `method` of `interface` with `arguments`; nil when there is no such method
    /// or its arguments are not of the method's types.
    public init?(interface: String, method: String, arguments: [DBusValue]) {
        if interface == "org.mpris.MediaPlayer2", arguments.isEmpty {
            switch method {
            case "Quit": self = .quit
            case "Raise": self = .raise
            default: return nil
            }
            return
        }
        guard interface == MPRISState.playerInterface else { return nil }
        switch (method, arguments.count, arguments.first, arguments.last) {
        case ("Play", 0, _, _): self = .play
        case ("Pause", 0, _, _): self = .pause
        case ("PlayPause", 0, _, _): self = .playPause
        case ("Stop", 0, _, _): self = .stop
        case ("Next", 0, _, _): self = .next
        case ("Previous", 0, _, _): self = .previous
        case ("Seek", 1, .int64(let offset)?, _): self = .seek(by: Double(offset) / 1e6)
        case ("SetPosition", 2, .objectPath(let track)?, .int64(let position)?): self = .setPosition(trackID: track, seconds: Double(position) / 1e6)
        case ("OpenUri", 1, .string(let uri)?, _): self = .openURI(uri)
        default: return nil
        }
    }
}

extension MPRISState {
    /// The bus name a player takes (mpv's plugin takes `org.mpris.MediaPlayer2.mpv`).
    public static let busName = "org.mpris.MediaPlayer2.reel"
    /// The object every MPRIS player is at.
    public static let objectPath = "/org/mpris/MediaPlayer2"
    /// The player interface's name.
    public static let playerInterface = "org.mpris.MediaPlayer2.Player"

    /// The root interface's properties (`org.mpris.MediaPlayer2`): a player that can quit,
    /// cannot be raised, and keeps no track list.
    public static let rootProperties: [String: DBusValue] = [
        "CanQuit": .bool(true), "CanRaise": .bool(false), "HasTrackList": .bool(false), "Identity": .string("Reel"),
        "SupportedUriSchemes": .strings(["file", "http", "https", "rtmp", "rtsp", "srt", "udp", "rtp"]),
        "SupportedMimeTypes": .strings(["video/mp4", "video/x-matroska", "video/webm", "video/mp2t", "application/vnd.apple.mpegurl", "application/dash+xml"]),
    ]

    /// The interfaces, as D-Bus introspection describes them.
    public static let introspection = """
        <node>
          <interface name="org.mpris.MediaPlayer2">
            <method name="Raise"/>
            <method name="Quit"/>
            <property name="CanQuit" type="b" access="read"/>
            <property name="CanRaise" type="b" access="read"/>
            <property name="HasTrackList" type="b" access="read"/>
            <property name="Identity" type="s" access="read"/>
            <property name="SupportedUriSchemes" type="as" access="read"/>
            <property name="SupportedMimeTypes" type="as" access="read"/>
          </interface>
          <interface name="org.mpris.MediaPlayer2.Player">
            <method name="Next"/>
            <method name="Previous"/>
            <method name="Pause"/>
            <method name="PlayPause"/>
            <method name="Stop"/>
            <method name="Play"/>
            <method name="Seek"><arg direction="in" name="Offset" type="x"/></method>
            <method name="SetPosition"><arg direction="in" name="TrackId" type="o"/><arg direction="in" name="Position" type="x"/></method>
            <method name="OpenUri"><arg direction="in" name="Uri" type="s"/></method>
            <signal name="Seeked"><arg name="Position" type="x"/></signal>
            <property name="PlaybackStatus" type="s" access="read"/>
            <property name="Rate" type="d" access="readwrite"/>
            <property name="Metadata" type="a{sv}" access="read"/>
            <property name="Volume" type="d" access="readwrite"/>
            <property name="Position" type="x" access="read"/>
            <property name="MinimumRate" type="d" access="read"/>
            <property name="MaximumRate" type="d" access="read"/>
            <property name="CanGoNext" type="b" access="read"/>
            <property name="CanGoPrevious" type="b" access="read"/>
            <property name="CanPlay" type="b" access="read"/>
            <property name="CanPause" type="b" access="read"/>
            <property name="CanSeek" type="b" access="read"/>
            <property name="CanControl" type="b" access="read"/>
          </interface>
        </node>
        """
}
