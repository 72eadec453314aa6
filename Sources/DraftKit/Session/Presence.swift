import Glibc

/// Who uses a data directory: each draftline that opens one as an identity holds a shared
/// lock (`flock(LOCK_SH)`) on `<data>/present.<global_key>` for as long as it runs.
///
/// The file stays when the process ends, so it also says that the identity was used here
/// once; the lock goes with the process, however it ends, so whether one runs now is never
/// stale. The demo peers ask before they speak (``DemoPeers``): they never answer in the
/// name of a person who is, or was, really here.
public final class Presence {
    /// Whether an identity is, or was, used on the data directory.
    public enum State: Equatable, Sendable {
        /// No draftline ever ran as it here.
        case never
        /// A draftline ran as it here, and none does now.
        case before
        /// A draftline runs as it here now.
        case now
    }

    private let directory: Directory
    private var held: [FileDescriptor] = []

    init(directory: Directory) { self.directory = directory }

    /// The presence files of a data directory already open.
    public convenience init(_ data: DataDirectory) { self.init(directory: data.history.directories.root) }

    deinit { for file in held { file.close() } }

    static func name(of identity: GlobalKey) -> String { "present.\(identity.rawValue)" }

    /// Says that this process is `identity`, until it ends (or this object goes): the file
    /// is made when missing (mode 0600; never through a link), and a shared lock is taken,
    /// waiting a second at most: a process that holds it exclusively (no draftline does for
    /// long) is named in the error, and this one runs without announcing itself.
    public func announce(_ identity: GlobalKey) throws(StoreError) {
        do throws(FileError) {
            // Made only when missing: a read-only data directory that has it still says who runs.
            let name = Self.name(of: identity)
            var opened = try directory.open(name, access: .read, owned: true)
            if opened == nil { opened = try directory.open(name, access: .read, create: .ifMissing, owned: true) }
            guard let file = opened else { return }
            do throws(FileError) {
                try FileLock.take(file, LOCK_SH, path: file.path, limit: FileLock.noticeAfter, onWait: nil)
            } catch {
                file.close()
                throw error
            }
            held.append(file)
        } catch {
            throw .unavailable(error)
        }
    }

    /// Whether a draftline runs, or ran, as `identity` here. A file that cannot be opened
    /// (not a regular file, another user's) counts as a person there: a peer stays silent
    /// rather than guess.
    public func state(of identity: GlobalKey) -> State {
        let file: FileDescriptor
        do {
            guard let opened = try directory.open(Self.name(of: identity), access: .read) else { return .never }
            file = opened
        } catch {
            return .now
        }
        defer { file.close() }
        guard (try? file.lock(LOCK_EX | LOCK_NB)) == true else { return .now }
        _ = try? file.lock(LOCK_UN)
        return .before
    }
}
