import ArgumentParser

struct RTPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rtp",
        abstract: "Receive H.264 and H.265 video over RTP.",
        subcommands: [RTPReceiveCommand.self])
}
