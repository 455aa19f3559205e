import CZlib
import Glibc
import Synchronization

/// A body made once and sent many times with values that differ per response (such as the
/// viewer's token in a cached page) put in each of its places.
///
/// For clients that accept gzip, the fixed pieces are compressed once, on first use, each as
/// raw deflate blocks of its own (a fresh stream ending in a sync flush, so nothing refers back
/// across a place or a piece); a response then joins them with the values as stored blocks and
/// computes the CRC by combining the pieces' CRCs. Sending never compresses again.
///
/// Bodies are made of bodies: `inserting(_:atSlotsFrom:)` puts whole bodies (a page's kept
/// fragments) in places, sharing their pieces, and with them each piece's compressed copy, so a
/// piece drawn once is compressed once whichever page sends it first.
public final class SplicedBody: Sendable {
    private let segments: [Segment]
    /// `segments` laid out for `filled(with:)`, once asked for.
    private let plainLayout = Mutex<Layout?>(nil)
    /// `segments`' compressed copies laid out for `gzipped(with:)`, once asked for.
    private let compressedLayout = Mutex<Layout?>(nil)

    private enum Segment: Sendable {
        case bytes(Piece)
        /// A place, taking the value of this index of those given to `filled(with:)`.
        case place(slot: Int)
    }

    /// Fixed bytes, shared by every body that holds them.
    private final class Piece: Sendable {
        let bytes: [UInt8]
        private let compressed = Mutex<CompressedPiece?>(nil)

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var compressedPiece: CompressedPiece {
            // Compressed outside the lock.
            SplicedBody.once(compressed) {
                CompressedPiece(deflated: SplicedBody.deflateRaw(bytes), crc: SplicedBody.crc(bytes), count: bytes.count,
                                appendOperator: crc32_combine_gen(off_t(bytes.count)))
            }
        }
    }

    private struct CompressedPiece {
        let deflated: [UInt8]
        let crc: UInt
        let count: Int
        /// `crc32_combine_op`'s operator for appending this piece: made once, it makes each
        /// response's CRC a few multiplications instead of a `crc32_combine` per place.
        let appendOperator: UInt
    }

    /// The fixed bytes of every piece (or their raw deflate blocks) in one buffer, cut into runs
    /// at the places: a response is then one copy per run, with no reference to count per piece
    /// (a page spliced from fragments holds hundreds of pieces, many a few bytes long). Deflate
    /// blocks join as bytes: each piece's ends byte-aligned.
    private struct Layout {
        let bytes: [UInt8]
        let runs: [Run]
    }

    /// `bytes` from the previous run's `end` up to this one's, then the value of `slot` (none
    /// after the last run); for deflate blocks, the CRC and length of what they inflate to.
    private struct Run {
        var end = 0
        var slot: Int?
        var crc: UInt = 0
        var count = 0
        /// `crc32_combine_op`'s operator for appending this run, made once with the layout.
        var appendOperator: UInt = 0

        mutating func append(_ piece: CompressedPiece) {
            crc = crc32_combine_op(crc, piece.crc, piece.appendOperator)
            count += piece.count
        }
    }

    /// zlib's level 4: nearly level 6's size on HTML pages in much less time (Benchmarks/README.md).
    static let compressionLevel: Int32 = 4

    private init(segments: [Segment]) {
        self.segments = segments
    }

    /// `slots` (one per place, `pieces.count - 1`) say which value each place takes; by default
    /// every place takes the first.
    public convenience init(pieces: [[UInt8]], slots: [Int]? = nil) {
        precondition(!pieces.isEmpty, "a body has at least one piece")
        let slots = slots ?? Array(repeating: 0, count: pieces.count - 1)
        precondition(slots.count == pieces.count - 1, "one slot per place")
        var segments: [Segment] = []
        for (index, piece) in pieces.enumerated() {
            if index > 0 { segments.append(.place(slot: slots[index - 1])) }
            if !piece.isEmpty { segments.append(.bytes(Piece(piece))) }
        }
        self.init(segments: segments)
    }

    /// Splits `bytes` at each occurrence of any of `placeholders`, whose place then takes the
    /// value of the same index. Their first bytes should be rare in `bytes`: the search runs
    /// `memchr` once for each distinct first byte.
    public convenience init(splitting bytes: [UInt8], at placeholders: [[UInt8]]) {
        precondition(!placeholders.isEmpty && placeholders.allSatisfy { !$0.isEmpty }, "an empty placeholder cannot be found")
        let found: [(start: Int, slot: Int)] = bytes.withUnsafeBytes { body in
            var found: [(start: Int, slot: Int)] = []
            let shortest = placeholders.map(\.count).min()!
            for first in Set(placeholders.map { $0[0] }) {
                let candidates = placeholders.indices.filter { placeholders[$0][0] == first }
                var offset = 0
                while body.count - offset >= shortest,
                      let hit = memchr(body.baseAddress! + offset, Int32(first), body.count - offset - shortest + 1) {
                    let start = body.baseAddress!.distance(to: UnsafeRawPointer(hit))
                    let slot = candidates.first { slot in
                        placeholders[slot].count <= body.count - start
                            && placeholders[slot].withUnsafeBytes { memcmp(hit, $0.baseAddress!, $0.count) == 0 }
                    }
                    if let slot {
                        found.append((start, slot))
                        offset = start + placeholders[slot].count
                    } else {
                        offset = start + 1
                    }
                }
            }
            return found.sorted { $0.start < $1.start }
        }
        var pieces: [[UInt8]] = []
        var pieceStart = 0
        for place in found {
            pieces.append(Array(bytes[pieceStart..<place.start]))
            pieceStart = place.start + placeholders[place.slot].count
        }
        pieces.append(Array(bytes[pieceStart...]))
        self.init(pieces: pieces, slots: found.map(\.slot))
    }

    public convenience init(splitting bytes: [UInt8], at placeholder: [UInt8]) {
        self.init(splitting: bytes, at: [placeholder])
    }

    /// This body with `bodies[slot - firstSlot]` in each place of a slot from `firstSlot` on;
    /// places of lower slots stay places (the inserted bodies' own included).
    public func inserting(_ bodies: [SplicedBody], atSlotsFrom firstSlot: Int) -> SplicedBody {
        SplicedBody(segments: segments.flatMap { segment -> [Segment] in
            guard case .place(let slot) = segment, slot >= firstSlot else { return [segment] }
            return bodies[slot - firstSlot].segments
        })
    }

    /// The memory the body holds: its pieces, and as much again for their copy laid out to be
    /// filled (gzipped copies, once made, add about two fifths); pieces shared with other
    /// bodies are counted in each.
    public var heldBytes: Int { 2 * piecesByteCount }

    private var piecesByteCount: Int {
        segments.reduce(0) { total, segment in
            guard case .bytes(let piece) = segment else { return total }
            return total + piece.bytes.count
        }
    }

    /// The body with `values[slot]` in every place of that slot.
    public func filled(with values: [[UInt8]]) -> [UInt8] {
        let layout = laidOut(compressed: false)
        let count = layout.runs.reduce(layout.bytes.count) { total, run in total + (run.slot.map { values[$0].count } ?? 0) }
        return [UInt8](unsafeUninitializedCapacity: count) { body, initialized in
            var output = UnsafeMutableRawPointer(body.baseAddress!)
            func append(_ bytes: UnsafeRawBufferPointer) {
                guard let base = bytes.baseAddress else { return }
                output.copyMemory(from: base, byteCount: bytes.count)
                output += bytes.count
            }
            layout.bytes.withUnsafeBytes { fixed in
                var start = 0
                for run in layout.runs {
                    append(UnsafeRawBufferPointer(rebasing: fixed[start..<run.end]))
                    start = run.end
                    if let slot = run.slot { values[slot].withUnsafeBytes(append) }
                }
            }
            initialized = count
        }
    }

    public func filled(with value: [UInt8]) -> [UInt8] { filled(with: [value]) }

    /// `filled(with: values)` as a gzip member (RFC 1952).
    public func gzipped(with values: [[UInt8]]) -> [UInt8] {
        let layout = laidOut(compressed: true)
        var body: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]  // deflate, no name, no time, unknown OS
        body.reserveCapacity(layout.runs.reduce(layout.bytes.count + 28) { total, run in
            total + (run.slot.map { values[$0].count + 5 * (values[$0].count / 65_535 + 1) } ?? 0)
        })
        let valueCRCs = values.map(Self.crc)
        let appendValues = values.map { crc32_combine_gen(off_t($0.count)) }
        var crc: UInt = 0
        var total = 0
        layout.bytes.withUnsafeBufferPointer { fixed in
            var start = 0
            for run in layout.runs {
                body.append(contentsOf: UnsafeBufferPointer(rebasing: fixed[start..<run.end]))
                start = run.end
                if run.count > 0 { crc = crc32_combine_op(crc, run.crc, run.appendOperator) }
                total += run.count
                guard let slot = run.slot, !values[slot].isEmpty else { continue }
                values[slot].withUnsafeBufferPointer { Self.appendStoredBlocks($0, to: &body) }
                crc = crc32_combine_op(crc, valueCRCs[slot], appendValues[slot])
                total += values[slot].count
            }
        }
        body += [1, 0, 0, 0xff, 0xff]  // the final block: stored, empty
        for shift in stride(from: 0, to: 32, by: 8) { body.append(UInt8(truncatingIfNeeded: UInt32(truncatingIfNeeded: crc) >> shift)) }
        for shift in stride(from: 0, to: 32, by: 8) { body.append(UInt8(truncatingIfNeeded: UInt32(truncatingIfNeeded: total) >> shift)) }
        return body
    }

    public func gzipped(with value: [UInt8]) -> [UInt8] { gzipped(with: [value]) }

    private func laidOut(compressed: Bool) -> Layout {
        compressed ? Self.once(compressedLayout) { layOut(compressed: true) } : Self.once(plainLayout) { layOut(compressed: false) }
    }

    /// What `kept` holds, made by `make` the first time (two first users at once both make it, the same).
    private static func once<Value: Sendable>(_ kept: borrowing Mutex<Value?>, _ make: () -> Value) -> Value {
        if let done = kept.withLock({ $0 }) { return done }
        let made = make()
        kept.withLock { $0 = made }
        return made
    }

    private func layOut(compressed: Bool) -> Layout {
        var bytes: [UInt8] = []
        var runs: [Run] = []
        var run = Run()
        func endRun(before slot: Int?) {
            run.end = bytes.count
            run.slot = slot
            run.appendOperator = compressed ? crc32_combine_gen(off_t(run.count)) : 0
            runs.append(run)
            run = Run()
        }
        for segment in segments {
            switch segment {
            case .bytes(let piece) where compressed:
                let compressedPiece = piece.compressedPiece
                bytes += compressedPiece.deflated
                run.append(compressedPiece)
            case .bytes(let piece):
                bytes += piece.bytes
            case .place(let slot):
                endRun(before: slot)
            }
        }
        endRun(before: nil)
        return Layout(bytes: bytes, runs: runs)
    }

    /// Non-final stored blocks (at most 65,535 bytes each), byte-aligned as a sync flush leaves the stream.
    private static func appendStoredBlocks(_ bytes: UnsafeBufferPointer<UInt8>, to body: inout [UInt8]) {
        var start = 0
        repeat {
            let count = min(bytes.count - start, 65_535)
            // One by one: an array literal here was an allocation per place.
            body.append(0)
            body.append(UInt8(count & 0xff))
            body.append(UInt8(count >> 8))
            body.append(UInt8(~count & 0xff))
            body.append(UInt8((~count >> 8) & 0xff))
            body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<start + count]))
            start += count
        } while start < bytes.count
    }

    private static func crc(_ bytes: [UInt8]) -> UInt {
        bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
    }

    /// Raw deflate blocks of `bytes`, ending in a sync flush (byte-aligned, not final).
    private static func deflateRaw(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        guard czlib_deflate_init_raw(&stream, compressionLevel) == Z_OK else {
            preconditionFailure("zlib could not start a deflate stream (out of memory)")
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 16)
        var input = bytes
        let produced = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(output.count)
                let status = deflate(&stream, Z_SYNC_FLUSH)
                // Room left over means zlib had nothing more to write.
                precondition(status == Z_OK && stream.avail_in == 0 && stream.avail_out > 0, "deflate stopped early (\(status))")
                return output.count - Int(stream.avail_out)
            }
        }
        output.removeSubrange(produced...)
        return output
    }
}
