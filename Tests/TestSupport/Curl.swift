import Foundation

/// What a finished process wrote, and how it ended.
public struct ProcessOutput {
    public let exitCode: Int32
    public let output: String
    public let errors: String

    /// The `Set-Cookie` value for `name` among the response's headers.
    public func setCookie(_ name: String) -> String? {
        output.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie: \(name.lowercased())=") }
            .map { String($0.dropFirst("set-cookie: ".count)) }
    }
}

/// curl showing the response's head and body, with a bound on the time it may take.
public func curl(_ arguments: [String]) throws -> ProcessOutput {
    try run("/usr/bin/curl", ["--silent", "--show-error", "--include", "--max-time", "10"] + arguments)
}

public func run(_ executable: String, _ arguments: [String], input: String? = nil) throws -> ProcessOutput {
    let directory = NSTemporaryDirectory() + "run-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // Files, not pipes: a pipe's write end inherited by another test's child would keep a read waiting.
    let outputPath = directory + "/out", errorPath = directory + "/err", inputPath = directory + "/in"
    for path in [outputPath, errorPath] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
    _ = FileManager.default.createFile(atPath: inputPath, contents: Data((input ?? "").utf8))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = FileHandle(forReadingAtPath: inputPath)
    process.standardOutput = FileHandle(forWritingAtPath: outputPath)
    process.standardError = FileHandle(forWritingAtPath: errorPath)
    try process.run()
    process.waitUntilExit()
    let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    return ProcessOutput(exitCode: process.terminationStatus, output: read(outputPath), errors: read(errorPath))
}
