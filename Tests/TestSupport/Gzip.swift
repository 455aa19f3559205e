import CBrotli
import CZlib

public struct GzipError: Error, CustomStringConvertible {
    public let description: String
}

/// `bytes` decoded by zlib's own gzip decoder, which checks the CRC and length trailer too;
/// bytes after the gzip member are an error.
public func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
    var stream = z_stream()
    guard czlib_inflate_init_gzip(&stream) == Z_OK else { throw GzipError(description: "inflate did not start") }
    defer { inflateEnd(&stream) }
    var input = bytes
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    var status: Int32 = Z_OK
    input.withUnsafeMutableBufferPointer { input in
        stream.next_in = input.baseAddress
        stream.avail_in = uInt(input.count)
        repeat {
            let produced = chunk.withUnsafeMutableBufferPointer { chunk in
                stream.next_out = chunk.baseAddress
                stream.avail_out = uInt(chunk.count)
                status = inflate(&stream, Z_NO_FLUSH)
                return chunk.count - Int(stream.avail_out)
            }
            output += chunk[..<produced]
        } while status == Z_OK
    }
    guard status == Z_STREAM_END else { throw GzipError(description: "inflate ended with \(status)") }
    guard stream.avail_in == 0 else { throw GzipError(description: "bytes after the gzip member") }
    return output
}

/// `bytes` decoded by the Brotli project's own decoder; anything but one whole stream is an error.
public func unbrotli(_ bytes: [UInt8]) throws -> [UInt8] {
    var size = max(1 << 16, bytes.count * 64)
    var output = [UInt8](repeating: 0, count: size)
    let result = bytes.withUnsafeBufferPointer { input in
        BrotliDecoderDecompress(input.count, input.baseAddress, &size, &output)
    }
    guard result == BROTLI_DECODER_RESULT_SUCCESS else { throw GzipError(description: "brotli decoding ended with \(result)") }
    return Array(output.prefix(size))
}
