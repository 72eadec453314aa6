// File-system calls glibc has that Swift's Glibc module leaves out.
//
// `syncfs` is declared in <unistd.h> only under _GNU_SOURCE, which the Glibc module is not
// built with; the symbol is in glibc (2.14 and later), so it is declared here as glibc does.

#ifndef CFILESYSTEM_SHIM_H
#define CFILESYSTEM_SHIM_H

extern int syncfs(int fd);

/// `syncfs(fd)`: commits everything written to the file system `fd` is on, and no other.
/// Returns 0, or -1 with errno set.
static inline int dl_syncfs(int fd) { return syncfs(fd); }

#endif
