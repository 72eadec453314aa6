import Glibc

/// A file attached to a draft, waiting to be sent.
public struct Attachment: Equatable, Sendable {
    /// The file's absolute path.
    public var path: String

    public init(path: String) { self.path = path }

    /// The largest file `/attach` takes: 100 MiB.
    public static let maximumSize: Int64 = 100 * 1024 * 1024

    /// The message type the file is sent as, by its extension: `image`, `voice` or `file`.
    public var messageType: String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "file" }
        switch name[name.index(after: dot)...].lowercased() {
        case "png", "jpg", "jpeg", "gif", "heic", "webp", "bmp", "tiff": return "image"
        case "m4a", "mp3", "aac", "wav", "amr", "ogg", "opus", "caf": return "voice"
        default: return "file"
        }
    }

    /// Why a path cannot be attached.
    public enum Problem: Equatable, Sendable {
        case directory, fifo, device, socket, notRegular, notReadable
        /// Larger than ``Attachment/maximumSize``: its size in bytes.
        case tooLarge(Int64)
        /// `stat` failed with this `errno`.
        case system(Int32)
    }

    /// The file's name, for display.
    public var name: String { path.split(separator: "/").last.map(String.init) ?? path }

    /// Checks that `path` names a regular, readable file of at most ``maximumSize`` bytes
    /// and returns it as an attachment with an absolute path.
    ///
    /// Uses `stat` and `access` only: a FIFO, a device or a directory is refused without
    /// being opened, so nothing blocks.
    public static func checked(
        _ path: String, workingDirectory: String, home: String?
    ) throws(DraftlineError) -> Attachment {
        var absolute = path
        if absolute == "~" || absolute.hasPrefix("~/"), let home { absolute = home + absolute.dropFirst() }
        if !absolute.hasPrefix("/") { absolute = workingDirectory + "/" + absolute }
        var info = stat()
        guard stat(absolute, &info) == 0 else {
            throw errno == ENOENT ? .fileMissing(path) : .fileUnusable(path, .system(errno))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .fileUnusable(path, .directory)
        case S_IFIFO: throw .fileUnusable(path, .fifo)
        case S_IFCHR, S_IFBLK: throw .fileUnusable(path, .device)
        case S_IFSOCK: throw .fileUnusable(path, .socket)
        default: throw .fileUnusable(path, .notRegular)
        }
        guard access(absolute, R_OK) == 0 else { throw .fileUnusable(path, .notReadable) }
        guard Int64(info.st_size) <= maximumSize else {
            throw .fileUnusable(path, .tooLarge(Int64(info.st_size)))
        }
        return Attachment(path: absolute)
    }
}
