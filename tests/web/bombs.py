"""Hostile uploads for the size checks: a PNG that declares far more pixels than it carries."""

from __future__ import annotations

import struct
import zlib


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bomb(width: int, height: int) -> bytes:
    """A valid greyscale PNG of ``width`` x ``height`` black pixels; all-zero rows compress ~1000:1."""
    row = b"\x00" * (width + 1)  # filter byte + pixels
    packer = zlib.compressobj(9)
    body = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", body) + _chunk(b"IEND", b"")
