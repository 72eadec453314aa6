// libFuzzer entry point: the command parser and piped-line reader. Built by `make fuzz`.
import DraftKitFuzzing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    if let failure = FuzzProperties.commandParser(Array(UnsafeBufferPointer(start: data, count: size))) {
        fatalError(failure)
    }
    return 0
}
