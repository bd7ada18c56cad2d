import AppFlipProtocol
import NIOCore
import NIOEmbedded
import Testing

@testable import AppFlipDaemon

/// When `OutboundLines` writes: replies at once or at the end of the read, pushes at the end of the turn,
/// and a live app's `answer` acknowledgement with the next line or after `acknowledgementDelay`.
@Suite struct OutboundLinesTests {
    let channel = EmbeddedChannel()
    let lines: OutboundLines

    init() throws {
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        lines = OutboundLines(channel: channel)
    }

    /// A distinct line per `id`.
    static func message(_ id: Int) -> ServerMessage {
        .reply(Reply(id: .number(Int64(id)), op: .answer, error: ErrorBody(.timeout, "line \(id)")))
    }

    /// Each write so far, as the ids of its lines in order.
    func writes() throws -> [[Int]] {
        var writes: [[Int]] = []
        while var buffer = try channel.readOutbound(as: ByteBuffer.self) {
            let text = buffer.readString(length: buffer.readableBytes) ?? ""
            writes.append(
                text.split(separator: "\n").map { line in
                    Int(line.drop { !$0.isNumber }.prefix { $0.isNumber }) ?? -1
                }
            )
        }
        return writes
    }

    @Test func aReplyOutsideAReadLeavesAtOnce() throws {
        lines.send(Self.message(1))
        #expect(try writes() == [[1]])
    }

    @Test func theRepliesToOneReadLeaveInOneWrite() throws {
        lines.beginReading()
        lines.send(Self.message(1))
        lines.send(Self.message(2))
        #expect(try writes() == [])
        lines.endReading()
        #expect(try writes() == [[1, 2]])
    }

    @Test func thePushesOfOneTurnLeaveInOneWrite() throws {
        lines.sendAtEndOfTurn(Self.message(1))
        lines.sendAtEndOfTurn(Self.message(2))
        #expect(try writes() == [])
        channel.embeddedEventLoop.run()
        #expect(try writes() == [[1, 2]])
    }

    @Test func anAcknowledgementLeavesWithTheNextPush() throws {
        lines.sendAcknowledgement(Self.message(1))
        channel.embeddedEventLoop.run()
        #expect(try writes() == [], "nothing else is going out: the acknowledgement waits")
        lines.sendAtEndOfTurn(Self.message(2))
        channel.embeddedEventLoop.run()
        #expect(try writes() == [[1, 2]])
        channel.embeddedEventLoop.advanceTime(by: OutboundLines.acknowledgementDelay)
        #expect(try writes() == [], "the timer finds nothing waiting")
    }

    @Test func anAcknowledgementLeavesWithinTheDelayWhenATimerIsAlreadyArmed() throws {
        lines.sendAcknowledgement(Self.message(1))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        lines.sendAtEndOfTurn(Self.message(2))
        channel.embeddedEventLoop.run()
        #expect(try writes() == [[1, 2]])
        // The first acknowledgement's timer is still armed; the second leaves when it fires, 3 ms later.
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        lines.sendAcknowledgement(Self.message(3))
        channel.embeddedEventLoop.advanceTime(by: OutboundLines.acknowledgementDelay - .milliseconds(3))
        #expect(try writes() == [])
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(try writes() == [[3]])
        // Fired, it is gone: the next lone acknowledgement waits the whole delay again.
        lines.sendAcknowledgement(Self.message(4))
        channel.embeddedEventLoop.advanceTime(by: OutboundLines.acknowledgementDelay - .milliseconds(1))
        #expect(try writes() == [])
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(try writes() == [[4]])
    }

    @Test func anAcknowledgementAloneLeavesAfterTheDelay() throws {
        lines.sendAcknowledgement(Self.message(1))
        lines.sendAcknowledgement(Self.message(2))
        channel.embeddedEventLoop.advanceTime(by: OutboundLines.acknowledgementDelay - .milliseconds(1))
        #expect(try writes() == [])
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(try writes() == [[1, 2]])
    }

    @Test func anAcknowledgementOutlivesTheReadItCameIn() throws {
        lines.beginReading()
        lines.sendAcknowledgement(Self.message(1))
        lines.endReading()
        #expect(try writes() == [])
        channel.embeddedEventLoop.advanceTime(by: OutboundLines.acknowledgementDelay)
        #expect(try writes() == [[1]])
    }

    @Test func anAcknowledgementLeavesWithAReplyOfTheSameRead() throws {
        lines.beginReading()
        lines.sendAcknowledgement(Self.message(1))
        lines.send(Self.message(2))
        lines.endReading()
        #expect(try writes() == [[1, 2]])
        channel.embeddedEventLoop.advanceTime(by: OutboundLines.acknowledgementDelay)
        #expect(try writes() == [])
    }

    @Test func closingWritesWhatWaitsThenTheLastLine() throws {
        lines.sendAcknowledgement(Self.message(1))
        lines.close(after: Self.message(2))
        #expect(try writes() == [[1, 2]])
        channel.embeddedEventLoop.advanceTime(by: OutboundLines.acknowledgementDelay)
        #expect(try writes() == [])
    }
}
