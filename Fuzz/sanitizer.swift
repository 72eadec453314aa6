// libFuzzer entry point: the display sanitizer. Built by `make fuzz`.
import DraftKitFuzzing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSanitizer(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    if let failure = FuzzProperties.sanitizer(Array(UnsafeBufferPointer(start: data, count: size))) {
        fatalError(failure)
    }
    return 0
}
