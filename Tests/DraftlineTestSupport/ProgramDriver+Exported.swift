/// The programs-under-test driver (pseudo-terminal, pipes, seeded randomness), seen by
/// every test that imports the support target, as when it lived here.
@_exported import ProgramDriver
