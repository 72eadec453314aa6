import Foundation

/// Each way draftline reads a property list, side by side for the differential fuzz target:
/// the own readers must agree with Foundation's decoder on every file they take.
public enum PropertyListReaders {
    /// An import file as the own readers read it (line ends normalized); `nil` where neither takes it.
    public static func ownChatLog(_ data: Data) -> ChatLogFile? {
        ChatLogFile(own: ChatLogFile.lineEndsNormalized(data))
    }

    /// An import file as Foundation's decoder reads it (after the depth check).
    public static func foundationChatLog(_ data: Data) throws(ChatLogFile.Problem) -> ChatLogFile {
        try ChatLogFile(foundation: ChatLogFile.lineEndsNormalized(data))
    }

    /// A segment's last `count` messages as the own reader reads them; `nil` where it does
    /// not take the bytes.
    public static func ownSegment(_ data: Data, last count: Int = .max) -> [Message]? {
        BinaryChatLog.segment(data, last: count)
    }

    /// The message at `position` of a segment and how many it holds, as a journal record
    /// reads it (``BinaryChatLog/message(size:at:reading:)``).
    public static func ownSegmentMessage(_ data: Data, at position: Int) -> (count: Int, message: Message?)? {
        BinaryChatLog.message(size: data.count, at: position) { offset, count in
            Array(data.dropFirst(offset).prefix(count))
        }
    }

    /// Whether a segment's trailer, offset table and top array hold (``SegmentLayout``),
    /// whatever its messages.
    public static func segmentHoldsTogether(_ data: Data) -> Bool {
        SegmentLayout([UInt8](data)) != nil
    }

    /// A segment as Foundation's decoder reads it (after the depth check).
    public static func foundationSegment(_ data: Data) -> [Message]? {
        try? PropertyListInput.decode([Message].self, from: data)
    }

    /// A contacts file as the own readers read it; `nil` where neither takes it.
    public static func ownContacts(_ data: Data) -> [ContactEntry]? {
        try? ContactIndex.ownReading(of: Array(data))?.get()
    }

    /// A contacts file as Foundation's decoder reads it (after the depth check).
    public static func foundationContacts(_ data: Data) -> [ContactEntry]? {
        ContactIndex.foundationEntries(of: data)
    }

    /// The bytes draftline writes for a segment holding `messages`, and for the same
    /// segment after a send appended `more` to it.
    public static func segmentBytes(_ messages: [Message], appending more: [Message] = []) -> Data {
        let bytes = SegmentEncoder.segment(messages[...])
        guard !more.isEmpty, let layout = SegmentLayout(bytes), let added = SegmentEncoder.append(more, to: layout)
        else { return Data(bytes) }
        return Data(bytes + added)
    }
}
