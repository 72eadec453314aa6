import CFileSystem
import Glibc

/// The C library's file-system calls, each wrapped once: the only code of DraftKit's
/// storage that calls them. Every wrapper asks the active ``FaultPlan`` first, which can
/// fail the call *instead of* running it, so deleting a call changes what a test sees. A
/// call interrupted (`EINTR`) is made again, except `close`.
enum Syscall {
    /// Which C function a call is: the names a ``FaultPlan`` matches and its trace records.
    enum Name: String, CaseIterable, Sendable {
        case open, openat, fstat, fstatat, stat, mkdir, mkdirat, chmod, fchmod
        case read, pread, write, fsync, fdatasync, syncfs, ftruncate, close
        case fdopendir, readdir, renameat, linkat, unlinkat, readlinkat, symlinkat, flock

        /// Whether the call changes the file system, or writes to a file (what a read-only
        /// file system refuses). `open` and `openat` do when their flags ask for writing.
        func changes(flags: Int32) -> Bool {
            switch self {
            case .open, .openat: return flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC) != 0
            case .mkdir, .mkdirat, .chmod, .fchmod, .write, .ftruncate, .renameat, .linkat, .unlinkat, .symlinkat:
                return true
            default: return false
            }
        }
    }

    /// How many times in a row a call interrupted by a signal is made again.
    static let interruptionRetries = 64

    /// Runs `body` as the call `name`: through the fault plan, again after `EINTR`.
    @inline(__always)
    private static func run<R: BinaryInteger>(
        _ name: Name, _ path: String, flags: Int32 = 0, other: String = "", retry: Bool = true, _ body: () -> R
    ) -> R {
        var attempts = 0
        while true {
            let result: R
            if let plan = FaultPlan.current {
                let (index, code) = plan.intercept(name, path: path, flags: flags, other: other)
                if let code {
                    errno = code
                    result = -1
                } else {
                    result = body()
                }
                let failure = errno
                plan.completed(index, result: Int(truncatingIfNeeded: result), code: result == -1 ? failure : 0)
                errno = failure
            } else {
                result = body()
            }
            guard retry, result == -1, errno == EINTR, attempts < interruptionRetries else { return result }
            attempts += 1
        }
    }

    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        run(.open, path, flags: flags) { Glibc.open(path, flags, mode) }
    }

    /// `openat(2)`; `shown` names the file in the trace.
    static func openat(_ directory: Int32, _ name: String, _ flags: Int32, _ mode: mode_t, shown: String) -> Int32 {
        run(.openat, shown, flags: flags) { Glibc.openat(directory, name, flags, mode) }
    }

    static func fstat(_ descriptor: Int32, _ info: inout stat, shown: String) -> Int32 {
        run(.fstat, shown) { Glibc.fstat(descriptor, &info) }
    }

    static func fstatat(_ directory: Int32, _ name: String, _ info: inout stat, _ flags: Int32, shown: String) -> Int32
    {
        run(.fstatat, shown) { Glibc.fstatat(directory, name, &info, flags) }
    }

    static func stat(_ path: String, _ info: inout Glibc.stat) -> Int32 {
        run(.stat, path) { cStat(path, &info) }
    }

    static func mkdir(_ path: String, _ mode: mode_t) -> Int32 {
        run(.mkdir, path) { Glibc.mkdir(path, mode) }
    }

    static func mkdirat(_ directory: Int32, _ name: String, _ mode: mode_t, shown: String) -> Int32 {
        run(.mkdirat, shown) { Glibc.mkdirat(directory, name, mode) }
    }

    static func chmod(_ path: String, _ mode: mode_t) -> Int32 {
        run(.chmod, path) { Glibc.chmod(path, mode) }
    }

    static func fchmod(_ descriptor: Int32, _ mode: mode_t, shown: String) -> Int32 {
        run(.fchmod, shown) { Glibc.fchmod(descriptor, mode) }
    }

    static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, shown: String) -> Int {
        run(.read, shown) { Glibc.read(descriptor, buffer, count) }
    }

    static func pread(
        _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: Int, shown: String
    ) -> Int {
        run(.pread, shown) { Glibc.pread(descriptor, buffer, count, off_t(offset)) }
    }

    static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, shown: String) -> Int {
        run(.write, shown) { Glibc.write(descriptor, buffer, count) }
    }

    static func fsync(_ descriptor: Int32, shown: String) -> Int32 {
        run(.fsync, shown) { Glibc.fsync(descriptor) }
    }

    static func fdatasync(_ descriptor: Int32, shown: String) -> Int32 {
        run(.fdatasync, shown) { Glibc.fdatasync(descriptor) }
    }

    static func syncfs(_ descriptor: Int32, shown: String) -> Int32 {
        run(.syncfs, shown) { dl_syncfs(descriptor) }
    }

    static func ftruncate(_ descriptor: Int32, _ size: Int, shown: String) -> Int32 {
        run(.ftruncate, shown) { Glibc.ftruncate(descriptor, off_t(size)) }
    }

    /// `close(2)`, never made again: after it the number is free whatever it returned.
    static func close(_ descriptor: Int32, shown: String) -> Int32 {
        run(.close, shown, retry: false) { Glibc.close(descriptor) }
    }

    /// `fdopendir(3)`: the stream, or `nil` with `errno` set.
    static func fdopendir(_ descriptor: Int32, shown: String) -> OpaquePointer? {
        var stream: OpaquePointer?
        let result = run(.fdopendir, shown) { () -> Int32 in
            stream = Glibc.fdopendir(descriptor)
            return stream == nil ? -1 : 0
        }
        return result == 0 ? stream : nil
    }

    /// `readdir(3)`: the next entry's name; `nil` at the end (`errno` 0) or on an error
    /// (`errno` set), which the caller must tell apart. The plan fails the C function
    /// itself (no entry, `errno` set, as `readdir` fails), so the caller's check of `errno`
    /// is what a failing call meets, whether the plan or the kernel failed it.
    static func readdir(_ stream: OpaquePointer, shown: String) -> String? {
        var entry: UnsafeMutablePointer<dirent>?
        _ = run(.readdir, shown) { () -> Int32 in
            errno = 0
            entry = Glibc.readdir(stream)
            return 0
        }
        guard let entry else { return nil }
        return withUnsafePointer(to: entry.pointee.d_name) {
            $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
        }
    }

    /// `closedir(3)`, which closes the descriptor the stream was opened on.
    static func closedir(_ stream: OpaquePointer, shown: String) {
        _ = run(.close, shown, retry: false) { Glibc.closedir(stream) }
    }

    /// `renameat(2)`; the trace names the target, then the source.
    static func renameat(
        _ from: Int32, _ name: String, _ to: Int32, _ newName: String, shown: String, source: String
    ) -> Int32 {
        run(.renameat, shown, other: source) { Glibc.renameat(from, name, to, newName) }
    }

    /// `linkat(2)`; `shown` names the new name.
    static func linkat(
        _ from: Int32, _ path: String, _ to: Int32, _ newName: String, _ flags: Int32, shown: String
    ) -> Int32 {
        run(.linkat, shown) { Glibc.linkat(from, path, to, newName, flags) }
    }

    static func unlinkat(_ directory: Int32, _ name: String, _ flags: Int32, shown: String) -> Int32 {
        run(.unlinkat, shown) { Glibc.unlinkat(directory, name, flags) }
    }

    static func readlinkat(
        _ directory: Int32, _ name: String, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int, shown: String
    ) -> Int {
        run(.readlinkat, shown) { Glibc.readlinkat(directory, name, buffer, size) }
    }

    static func symlinkat(_ target: String, _ directory: Int32, _ name: String, shown: String) -> Int32 {
        run(.symlinkat, shown) { Glibc.symlinkat(target, directory, name) }
    }

    static func flock(_ descriptor: Int32, _ operation: Int32, shown: String) -> Int32 {
        run(.flock, shown) { cFlock(descriptor, operation) }
    }
}

// The C functions whose names are also the names of C structs: called from file scope,
// where the name means the function.
private func cStat(_ path: String, _ info: inout stat) -> Int32 { stat(path, &info) }
private func cFlock(_ descriptor: Int32, _ operation: Int32) -> Int32 { flock(descriptor, operation) }
