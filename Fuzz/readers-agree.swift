// libFuzzer entry point: FuzzProperties.readersAgree, draftline's own property-list readers
// against Foundation's decoder on the same bytes, and a journal record's one-message reader
// against the whole segment's reading (issue 30). Built by `make fuzz`.
import DraftKitFuzzing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReadersAgree(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    if let failure = FuzzProperties.readersAgree(Array(UnsafeBufferPointer(start: data, count: size))) {
        fatalError(failure)
    }
    return 0
}
