/// Why `contacts.plist` could not be used, or why its index could not be kept: data for
/// the presentation layer to word (``ContactBook/problem``, ``ContactBook/indexProblem``).
public enum ContactsProblem: Error, Equatable, Sendable {
    /// A call failed on the file, or the file was refused (a FIFO where it belongs).
    case unreadable(FileError)
    /// The file has `bytes` bytes, more than the `limit` draftline reads.
    case tooLarge(bytes: Int, limit: Int)
    /// The file has `bytes` bytes and is not in the plain form the own readers take (an
    /// array of dictionaries of strings): Foundation's decoder reads such a file, and only
    /// up to `limit` bytes, past which it is slow (seconds a megabyte).
    case notPlain(bytes: Int, limit: Int)
    /// Its strings, read, would weigh more than `limit` bytes: the file names a few long
    /// strings many times.
    case expands(limit: Int)
    /// It is not a property list holding an array (or it nests too deep to be read).
    case notAList
    /// `contacts.index` could not be written, so every start reads the `bytes` of
    /// `contacts.plist` again.
    case indexNotWritten(FileError, bytes: Int)
}
