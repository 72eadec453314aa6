import DraftlineREPL
import Glibc

/// Descriptors 0, 1 and 2, made sure of before any file is opened.
enum StandardDescriptors {
    /// Opens `/dev/null` on each of 0, 1 and 2 that is closed (`fcntl(F_GETFD)`, `open`,
    /// `dup2`), then checks that standard input can be read from. Returns what is wrong
    /// when it cannot be used (nothing is opened then), else `nil`.
    ///
    /// Otherwise the first file draftline opens would take the free number: with standard
    /// output closed, the lock file would become descriptor 1 and draftline's output would
    /// be written into it; with standard input closed, the lock file's bytes would be read
    /// as typed lines. `open` gives the lowest free number, so filling them in order puts
    /// each on its own. Standard input that is a directory, or open for writing only, would
    /// read as an empty input and end draftline at once with status 0, as if all went well.
    static func ensureOpen() -> ProgramNotice? {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
            guard opened >= 0 else {
                return .descriptorNotOpened(descriptor, call: "open", code: errno)
            }
            if opened != descriptor {
                let moved = dup2(opened, descriptor)
                let failure = errno
                close(opened)
                guard moved == descriptor else { return .descriptorNotOpened(descriptor, call: "dup2", code: failure) }
            }
        }
        let flags = fcntl(0, F_GETFL)
        guard flags >= 0 else { return .standardInputUnusable(code: errno) }
        if flags & O_ACCMODE == O_WRONLY { return .standardInputWriteOnly }
        var info = stat()
        if fstat(0, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR {
            return .standardInputIsDirectory
        }
        return nil
    }

}
