import Glibc

/// Writes one line to stderr in a single write, so lines from concurrent requests never interleave.
func writeStandardErrorLine(_ line: String) {
    var text = line
    text.append("\n")
    text.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
}
