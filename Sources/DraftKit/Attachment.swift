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
            throw errno == ENOENT ? .fileMissing(path) : .fileUnusable(path, String(cString: strerror(errno)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .fileUnusable(path, "it is a directory")
        case S_IFIFO: throw .fileUnusable(path, "it is a FIFO")
        case S_IFCHR, S_IFBLK: throw .fileUnusable(path, "it is a device")
        case S_IFSOCK: throw .fileUnusable(path, "it is a socket")
        default: throw .fileUnusable(path, "it is not a regular file")
        }
        guard access(absolute, R_OK) == 0 else { throw .fileUnusable(path, "it is not readable") }
        guard Int64(info.st_size) <= maximumSize else {
            throw .fileUnusable(path, "it is \(info.st_size / 1024 / 1024) MiB; the limit is 100 MiB")
        }
        return Attachment(path: absolute)
    }
}
