/// Text compared and hashed by its bytes (UTF-8), not by Swift's `String` equality.
///
/// Swift calls two strings equal when they are canonically equivalent (`café` with U+00E9
/// and `cafe` with U+0301, `Å` and U+212B), but a property list, `plistlib` and every other
/// reader keep them apart: a message ID is an ID only as written.
struct ExactText: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (lhs: ExactText, rhs: ExactText) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
