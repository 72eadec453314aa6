/// One message of a segment read where it lies, by the offset table's entry for it: what a
/// journal record costs is its one message, however big the segment (``BinaryChatLog``).
extension BinaryChatLog {
    /// The message at `position` of a segment of `size` bytes and how many it holds, read
    /// through `read` (a `pread`): the trailer, the table, the top array and the message's
    /// objects, nothing else, checked and made as a whole reading does. The message is `nil`
    /// past the end; the whole is `nil` when the bytes are not whole (a torn append) or are
    /// Foundation's to read: then the caller reads the whole segment.
    static func message<Failure: Error>(
        size: Int, at position: Int, reading read: (_ offset: Int, _ count: Int) throws(Failure) -> [UInt8]
    ) throws(Failure) -> (count: Int, message: Message?)? {
        guard position >= 0, size >= 8 + 1 + 32 else { return nil }
        let head = try read(0, 8)
        let tail = try read(size - 32, 32)
        guard
            let trailer = head.withUnsafeBytes({ head in
                tail.withUnsafeBytes { Trailer(size: size, head: head, tail: $0) }
            })
        else { return nil }
        // The trailer's check makes this the bytes between the table's start and the trailer.
        let table = try read(trailer.table, trailer.objects * trailer.offsetSize)
        guard let offsets = table.withUnsafeBytes({ Self.offsets($0, trailer) }) else { return nil }
        var gathered = Gathered(offsets: offsets, trailer: trailer)
        // Every element an object of the table, as the whole reading and an append need
        // (``SegmentLayout``): a message is never read from a segment whose top array is broken.
        guard try gathered.fetch(trailer.top, read), let elements = gathered.reading({ $0.array(trailer.top) }),
            elements.allSatisfy({ $0 < offsets.count })
        else { return nil }
        guard position < elements.count else { return (elements.count, nil) }
        let object = elements[position]
        guard try gathered.fetch(object, read), let pairs = gathered.reading({ $0.dictionary(object) }) else {
            return nil
        }
        for (key, value) in pairs {
            guard try gathered.fetch(key, read), try gathered.fetch(value, read) else { return nil }
        }
        guard let message = gathered.reading({ $0.message(object) }) else { return nil }
        return (elements.count, message)
    }

    /// The objects of a file read so far, one after another, for a ``BinaryChatLog`` over them.
    private struct Gathered {
        /// Each object's offset in the file.
        let offsets: [Int]
        let trailer: Trailer
        /// Where each object read starts in ``bytes``; 0 for one not read.
        var starts: [Int]
        /// The objects read. Byte 0 is what an object not read starts with: a null, which no
        /// reading of a message takes.
        var bytes: [UInt8] = [0]

        init(offsets: [Int], trailer: Trailer) {
            self.offsets = offsets
            self.trailer = trailer
            starts = [Int](repeating: 0, count: offsets.count)
        }

        /// Reads object `object` whole; false when there is none, it is of a kind no message
        /// holds, or it does not end before the table.
        mutating func fetch<Failure: Error>(
            _ object: Int, _ read: (_ offset: Int, _ count: Int) throws(Failure) -> [UInt8]
        ) throws(Failure) -> Bool {
            guard object >= 0, object < offsets.count else { return false }
            if starts[object] != 0 { return true }
            let offset = offsets[object]
            let room = trailer.table - offset
            // The marker and its count, and for most objects all of it.
            var chunk = try read(offset, min(64, room))
            guard chunk.count == min(64, room), let length = Self.length(chunk, trailer.referenceSize, room) else {
                return false
            }
            if length > chunk.count {
                chunk += try read(offset + chunk.count, length - chunk.count)
                guard chunk.count == length else { return false }
            }
            starts[object] = bytes.count
            bytes += chunk.prefix(length)
            return true
        }

        /// The reading of `body` over the objects read.
        func reading<T>(_ body: (BinaryChatLog) -> T?) -> T? {
            bytes.withUnsafeBytes {
                body(
                    BinaryChatLog(
                        gathered: $0, offsets: starts, referenceSize: trailer.referenceSize, top: trailer.top))
            }
        }

        /// How many bytes an object takes from its marker at the start of `head`, as
        /// ``BinaryChatLog/header(_:)`` reads it; `nil` for a kind no message holds or past `room`.
        static func length(_ head: [UInt8], _ referenceSize: Int, _ room: Int) -> Int? {
            guard let marker = head.first else { return nil }
            let kind = marker >> 4
            let nibble = Int(marker & 0x0F)
            var count = nibble
            var at = 1
            if count == 0x0F, kind >= 4 {
                guard head.count > 1, head[1] & 0xF0 == 0x10 else { return nil }
                let width = 1 << Int(head[1] & 0x0F)
                guard width <= 8, head.count >= 2 + width else { return nil }
                var value: UInt64 = 0
                for index in 2..<(2 + width) { value = value << 8 | UInt64(head[index]) }
                guard value <= UInt64(Int.max) else { return nil }
                count = Int(value)
                at = 2 + width
            }
            let left = room - at
            let contents: Int
            switch kind {
            case 0x1, 0x2:
                guard nibble <= 3 else { return nil }
                contents = 1 << nibble
            case 0x3:
                guard nibble == 3 else { return nil }
                contents = 8
            case 0x5:
                contents = count
            case 0x6:
                guard count <= left / 2 else { return nil }
                contents = 2 * count
            case 0xA:
                guard count <= left / referenceSize else { return nil }
                contents = count * referenceSize
            case 0xD:
                guard count <= left / referenceSize / 2 else { return nil }
                contents = 2 * count * referenceSize
            default:
                return nil
            }
            guard contents <= left else { return nil }
            return at + contents
        }
    }
}
