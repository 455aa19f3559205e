#!/usr/bin/env python3
"""Converts Natural Earth's 1:110m countries (public domain) into Sources/WorldMap/Resources/countries-110m.txt,
the basemap the WorldMap target draws. Run once; the output is committed.

Source: Debian's python3-geopandas 0.12.2-1 ships naturalearth_lowres (Natural Earth 1:110m
Cultural Vectors, Admin 0 – Countries, the release current when geopandas 0.12.2 built it with
its naturalearth_creation.py) at
/usr/lib/python3/dist-packages/geopandas/datasets/naturalearth_lowres/. Natural Earth is in the
public domain (https://www.naturalearthdata.com/about/terms-of-use/).

Reads the .shp and .dbf with the standard library only (polygons, shape type 5). Output: one
line per polygon ring, "NAME<TAB>lon,lat lon,lat …", degrees rounded to 0.01 (about 1 km: far
finer than 1:110m's own detail).
"""
import struct
import sys
from pathlib import Path

SOURCE = Path("/usr/lib/python3/dist-packages/geopandas/datasets/naturalearth_lowres/naturalearth_lowres")
OUT = Path(__file__).resolve().parent.parent / "Sources" / "WorldMap" / "Resources" / "countries-110m.txt"


def read_names(dbf):
    data = dbf.read_bytes()
    records, header_size, record_size = struct.unpack("<IHH", data[4:12])
    fields, offset = [], 32
    while data[offset] != 0x0D:
        name = data[offset:offset + 11].split(b"\0")[0].decode()
        fields.append((name, data[offset + 16]))
        offset += 32
    names = []
    for index in range(records):
        record = data[header_size + index * record_size:header_size + (index + 1) * record_size]
        position, values = 1, {}
        for name, length in fields:
            values[name] = record[position:position + length].decode("utf-8", "replace").strip()
            position += length
        names.append(values["name"])
    return names


def read_rings(shp):
    data = shp.read_bytes()
    offset, shapes = 100, []
    while offset < len(data):
        _, length = struct.unpack(">II", data[offset:offset + 8])
        content = data[offset + 8:offset + 8 + length * 2]
        offset += 8 + length * 2
        if struct.unpack("<i", content[:4])[0] != 5:
            shapes.append([])
            continue
        parts_count, points_count = struct.unpack("<ii", content[36:44])
        parts = list(struct.unpack(f"<{parts_count}i", content[44:44 + 4 * parts_count])) + [points_count]
        start = 44 + 4 * parts_count
        points = [struct.unpack("<dd", content[start + 16 * i:start + 16 * i + 16]) for i in range(points_count)]
        shapes.append([points[parts[i]:parts[i + 1]] for i in range(parts_count)])
    return shapes


def main():
    names = read_names(SOURCE.with_suffix(".dbf"))
    shapes = read_rings(SOURCE.with_suffix(".shp"))
    lines = []
    for name, rings in zip(names, shapes):
        for ring in rings:
            coordinates = " ".join(f"{lon:.2f},{lat:.2f}" for lon, lat in ring)
            lines.append(f"{name}\t{coordinates}")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"{len(names)} countries, {len(lines)} rings -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
