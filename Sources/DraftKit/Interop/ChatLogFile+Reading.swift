import Foundation
import Glibc

/// An import file read from disk.
extension ChatLogFile {
    /// Reads and parses a file (a regular file, not followed through a link, at most
    /// ``sizeLimit`` bytes).
    public init(contentsOf path: String) throws(TransferError) {
        let data: Data
        do throws(FileError) {
            guard let file = try FileDescriptor.open(path, access: .read) else {
                throw FileError("open", path: path, code: ENOENT)
            }
            data = try file.closeAfter { file throws(FileError) in try file.readAll(limit: Self.sizeLimit) }
        } catch {
            throw .unreadable(error)
        }
        do throws(Problem) { try self.init(data: data) } catch { throw .unusable(error) }
    }
}
