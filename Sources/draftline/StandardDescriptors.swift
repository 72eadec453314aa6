import Glibc

/// Descriptors 0, 1 and 2, made sure of before any file is opened.
enum StandardDescriptors {
    /// Opens `/dev/null` on each of 0, 1 and 2 that is closed (`fcntl(F_GETFD)`, `open`).
    ///
    /// Otherwise the first file draftline opens would take the free number: with standard
    /// output closed, the lock file would become descriptor 1 and draftline's output would
    /// be written into it; with standard input closed, the lock file's bytes would be read
    /// as typed lines. `open` gives the lowest free number, so filling them in order puts
    /// each on its own.
    static func ensureOpen() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
            if opened >= 0 && opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }
}
