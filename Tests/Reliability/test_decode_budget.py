"""Decompression bombs through the real server: a PNG of under a megabyte that would decode to
600 MB is refused from its header (422, with the memory it would need), and the server's peak
memory never comes near it; a damaged one that passes the header check is refused without
keeping what its decode held."""

import struct
import zlib

from conftest import Client, rss_kilobytes

SIDE = 10_000
# Adam7: each pass's first column and row, and its steps across and down.
ADAM7_PASSES = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def interlaced_black_png(side, bits=16):
    """A black side×side RGB PNG, Adam7-interlaced, compressed a row at a time."""
    bytes_per_pixel = 3 * bits // 8
    compressor = zlib.compressobj(9)
    pixels = []
    for x0, y0, dx, dy in ADAM7_PASSES:
        columns, rows = (side - x0 + dx - 1) // dx, (side - y0 + dy - 1) // dy
        if columns and rows:
            row = bytes(1 + columns * bytes_per_pixel)  # filter type 0, then zero samples
            pixels += [compressor.compress(row) for _ in range(rows)]
    pixels.append(compressor.flush())
    header = struct.pack(">IIBBBBB", side, side, bits, 2, 0, 0, 1)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", b"".join(pixels)) + chunk(b"IEND", b"")


def peak_rss_megabytes(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) // 1024
    raise AssertionError(f"no VmHWM for process {pid}")


def test_an_interlaced_16_bit_png_bomb_is_refused_without_the_memory(server):
    bomb = interlaced_black_png(SIDE)
    assert len(bomb) < 1_000_000
    client = Client(server)
    status, body, _ = client.post_multipart("/trips", {"name": "Bomb", "collection": "fallGetaways"},
                                            {"photo": ("bomb.png", "image/png", bomb)})
    assert status == 422, f"the bomb answered {status}: {body[:300]!r}"
    assert b"would need 572.2 MB of memory to open" in body, body[:2000]
    assert peak_rss_megabytes(server.process.pid) < 200
    assert client.get("/")[0] == 200


def test_a_cut_off_interlaced_png_is_refused_without_keeping_its_decode(server):
    # 8000×8000 8-bit RGB needs 192 MB decoded: within the budget, so only decoding finds the
    # damage. libvips 8.14 kept that whole buffer when a WebP save failed on it (+183 MB each).
    whole = interlaced_black_png(8000, bits=8)
    cut_off = whole[:len(whole) // 2]
    client = Client(server)
    assert client.get("/")[0] == 200
    before = rss_kilobytes(server.process.pid) // 1024
    for attempt in range(20):
        status, body, _ = client.post_multipart("/trips", {"name": f"Cut off {attempt}", "collection": "fallGetaways"},
                                                {"photo": ("cut.png", "image/png", cut_off)})
        assert status == 422, f"upload {attempt} answered {status}: {body[:300]!r}"
    grown = rss_kilobytes(server.process.pid) // 1024 - before
    assert grown < 150, f"RSS grew {grown} MB over 20 uploads of a damaged photo"
    assert client.get("/")[0] == 200
