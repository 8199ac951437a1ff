import Foundation
import ReelCore

/// Plain UDP: RTP on `port`, RTCP on `port + 1`, read by the receiving thread in batches
/// (POSIX sockets rather than SwiftNIO here: an event loop hands over one datagram per
/// wake, which made receiving cost more than ffmpeg's). Receiver reports go back to the
/// address sender reports came from.
final class UDPTransport: PolledRTPTransport, @unchecked Sendable {
    let address: String
    let port: Int
    private let waker = PollWaker()
    // Set by `start` before the receiving thread runs; read and written by that thread;
    // closed by `stop` after it finished.
    private var media: DatagramSocket?
    private var control: DatagramSocket?
    private var descriptors: [Int32] = []

    init(address: String, port: Int) {
        self.address = address
        self.port = port
    }

    func start(deliver: @escaping @Sendable (ReceivedDatagram) -> Void, closed: @escaping @Sendable (Error?) -> Void) async throws {
        let media = try DatagramSocket(address: address, port: port)
        self.media = media
        // RTCP is optional: a port taken by someone else does not stop the video.
        control = port < 65535 ? try? DatagramSocket(address: address, port: port + 1) : nil
        descriptors = [media.descriptor] + (control.map { [$0.descriptor] } ?? [])
    }

    func wait(until deadline: Double, forDatagrams: Bool) {
        waker.wait(until: deadline, sockets: forDatagrams ? descriptors : [])
    }

    func read(limit: Int, into batch: inout [(datagram: ReceivedDatagram, arrival: Double)]) -> Int {
        (media?.read(onControlPort: false, limit: limit, into: &batch) ?? 0) + (control?.read(onControlPort: true, limit: limit, into: &batch) ?? 0)
    }

    func interrupt() { waker.wake() }

    var droppedDatagrams: Int { (media?.kernelDrops ?? 0) + (control?.kernelDrops ?? 0) }

    func sendControl(_ bytes: [UInt8]) { control?.sendToLastSender(bytes) }

    func stop() async {
        media?.close()
        control?.close()
    }
}
