"""One whole table from a run's chunk files, without decoding them: their row groups, copied.

A parquet file is ``PAR1``, its column chunks (the compressed pages), a footer (``FileMetaData``,
thrift compact encoding) that says where every column chunk starts, the footer's length and
``PAR1``. Files written alike (same schema, same writer) join into one by copying their column
chunks one after the other and writing one footer listing every row group, each absolute offset
moved by where its file's bytes now start. The page indexes (optional: they let a reader skip
pages, which no reader of a run does) are left out of the footer, as the page offsets they hold
would all have to be rewritten; their bytes stay in the file, unreferenced.

Re-encoding the tables instead (polars ``scan_parquet`` then ``sink_parquet``) cost the main
process 8 ms of CPU per chunk of 32768 Black & White deals, as much as making and writing the
chunk itself, and its memory grew with the number of chunks; copying costs about the time to
read the bytes, in bounded memory.

:func:`stitch` returns ``False`` (writing nothing) where the files are not alike or hold what
copying cannot move (a bloom filter, encryption, column chunks in other files); the caller
then re-encodes them. A :class:`Joiner` does the same one part at a time, as a run's chunks are
played, and takes the joined file's SHA-256 on the way.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import struct
from pathlib import Path

MAGIC = b"PAR1"

# thrift compact types
_TRUE, _FALSE, _BYTE, _I16, _I32, _I64, _DOUBLE, _BINARY, _LIST, _SET, _MAP, _STRUCT = range(1, 13)

# field ids of parquet.thrift that hold absolute file offsets, or make copying wrong
_FILE_ROW_GROUPS, _FILE_NUM_ROWS, _FILE_SCHEMA, _FILE_KEY_VALUE = 4, 3, 2, 5
_FILE_ENCRYPTION = (8, 9)
_GROUP_COLUMNS, _GROUP_FILE_OFFSET, _GROUP_ORDINAL = 1, 5, 7
_CHUNK_FILE_PATH, _CHUNK_FILE_OFFSET, _CHUNK_META = 1, 2, 3
_CHUNK_PAGE_INDEX = (4, 5, 6, 7)  # where the offset and column indexes are
_CHUNK_CRYPTO = (8, 9)
_META_OFFSETS = (9, 10, 11)  # data, index and dictionary page offsets
_META_BLOOM = 14  # a bloom filter sits outside the column chunk's pages


class NotStitchable(Exception):
    """The files cannot be joined by copying; re-encode them instead."""


# ---- thrift compact protocol: a struct is a list of [field id, type, value] --------------------

def _varint(data: bytes, pos: int) -> tuple[int, int]:
    shift = result = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7


def _zigzag(n: int) -> int:
    return (n >> 1) ^ -(n & 1)


def _value(data: bytes, pos: int, kind: int):
    if kind in (_TRUE, _FALSE, _BYTE):  # a bool inside a list is one byte; kept as written
        return data[pos], pos + 1
    if kind in (_I16, _I32, _I64):
        raw, pos = _varint(data, pos)
        return _zigzag(raw), pos
    if kind == _DOUBLE:
        return data[pos:pos + 8], pos + 8
    if kind == _BINARY:
        size, pos = _varint(data, pos)
        return data[pos:pos + size], pos + size
    if kind in (_LIST, _SET):
        head = data[pos]
        pos += 1
        size, item = head >> 4, head & 0x0F
        if size == 15:
            size, pos = _varint(data, pos)
        items = []
        for _ in range(size):
            value, pos = _value(data, pos, item)
            items.append(value)
        return (item, items), pos
    if kind == _MAP:
        size, pos = _varint(data, pos)
        if not size:
            return (0, 0, []), pos
        types = data[pos]
        pos += 1
        pairs = []
        for _ in range(size):
            key, pos = _value(data, pos, types >> 4)
            value, pos = _value(data, pos, types & 0x0F)
            pairs.append((key, value))
        return (types >> 4, types & 0x0F, pairs), pos
    if kind == _STRUCT:
        return _struct(data, pos)
    raise NotStitchable(f"unknown thrift type {kind}")


def _struct(data: bytes, pos: int) -> tuple[list, int]:
    fields, last = [], 0
    while True:
        head = data[pos]
        pos += 1
        if head == 0:
            return fields, pos
        kind, delta = head & 0x0F, head >> 4
        if delta:
            fid = last + delta
        else:
            raw, pos = _varint(data, pos)
            fid = _zigzag(raw)
        if kind in (_TRUE, _FALSE):  # a bool field's value is its type
            value = None
        else:
            value, pos = _value(data, pos, kind)
        fields.append([fid, kind, value])
        last = fid


def _put_varint(out: bytearray, n: int) -> None:
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def _put_value(out: bytearray, kind: int, value) -> None:
    if kind in (_TRUE, _FALSE, _BYTE):
        out.append(value)
    elif kind in (_I16, _I32, _I64):
        _put_varint(out, (value << 1) ^ (value >> 63))
    elif kind == _DOUBLE:
        out += value
    elif kind == _BINARY:
        _put_varint(out, len(value))
        out += value
    elif kind in (_LIST, _SET):
        item, items = value
        if len(items) < 15:
            out.append(len(items) << 4 | item)
        else:
            out.append(0xF0 | item)
            _put_varint(out, len(items))
        for v in items:
            _put_value(out, item, v)
    elif kind == _MAP:
        ktype, vtype, pairs = value
        _put_varint(out, len(pairs))
        if pairs:
            out.append(ktype << 4 | vtype)
            for k, v in pairs:
                _put_value(out, ktype, k)
                _put_value(out, vtype, v)
    elif isinstance(value, bytes):  # a struct encoded already (stitch's row groups)
        out += value
    else:
        _put_struct(out, value)


def _put_struct(out: bytearray, fields: list) -> None:
    last = 0
    for fid, kind, value in fields:
        if 0 < fid - last <= 15:
            out.append((fid - last) << 4 | kind)
        else:
            out.append(kind)
            _put_varint(out, (fid << 1) ^ (fid >> 63))
        if kind not in (_TRUE, _FALSE):
            _put_value(out, kind, value)
        last = fid
    out.append(0)


def _field(fields: list, fid: int) -> list | None:
    return next((f for f in fields if f[0] == fid), None)


# ---- parquet files ---------------------------------------------------------------------------

def footer(path: Path) -> tuple[list, int]:
    """A parquet file's ``FileMetaData`` and where it starts (the end of the column chunks)."""
    with open(path, "rb") as f:
        size = f.seek(0, os.SEEK_END)
        if size < 12:
            raise NotStitchable(f"{path} is too short for a parquet file")
        f.seek(size - 8)
        tail = f.read(8)
        length = struct.unpack("<I", tail[:4])[0]
        if tail[4:] != MAGIC or length > size - 12:
            raise NotStitchable(f"{path} has no parquet footer")
        start = size - 8 - length
        f.seek(start)
        data = f.read(length)
    try:
        meta, _ = _struct(data, 0)
    except (IndexError, RecursionError, NotStitchable) as exc:  # a damaged footer, whatever it holds
        raise NotStitchable(f"{path}: unreadable footer ({exc})") from None
    if _field(meta, _FILE_NUM_ROWS) is None or _field(meta, _FILE_SCHEMA) is None:
        raise NotStitchable(f"{path}: a footer without its rows or schema")
    return meta, start


def _moved(group: list, shift: int) -> list:
    """A row group's metadata with every absolute offset moved by ``shift`` bytes."""
    out = []
    for fid, kind, value in group:
        if fid == _GROUP_COLUMNS:
            value = (value[0], [_moved_column(c, shift) for c in value[1]])
        elif fid == _GROUP_FILE_OFFSET:
            value += shift
        elif fid == _GROUP_ORDINAL:  # the group's place in its file: dropped (optional) as it changes
            continue
        out.append([fid, kind, value])
    return out


def _moved_column(column: list, shift: int) -> list:
    out = []
    for fid, kind, value in column:
        if fid in _CHUNK_CRYPTO or fid == _CHUNK_FILE_PATH:
            raise NotStitchable("encryption, or a column chunk in another file")
        if fid in _CHUNK_PAGE_INDEX:  # optional; its page offsets lie outside the footer
            continue
        if fid == _CHUNK_FILE_OFFSET:
            value += shift
        elif fid == _CHUNK_META:
            if _field(value, _META_BLOOM):
                raise NotStitchable("a bloom filter")
            value = [[f, k, v + shift if f in _META_OFFSETS else v] for f, k, v in value]
        out.append([fid, kind, value])
    return out


def _groups(meta: list, shift: int) -> list[bytes]:
    """A file's row groups, every offset moved by ``shift`` bytes, each encoded (a few hundred
    bytes: only these are kept of a footer)."""
    found = _field(meta, _FILE_ROW_GROUPS)
    encoded = []
    for group in found[2][1] if found else []:
        out = bytearray()
        _put_struct(out, _moved(group, shift))
        encoded.append(bytes(out))
    return encoded


def _whole_footer(first: list, groups: list[bytes], rows: int) -> bytes:
    """The footer of the joined file (the first part's, listing every row group), its length
    and the closing ``PAR1``."""
    meta = [[f, k, v] for f, k, v in first if f not in (_FILE_ROW_GROUPS, _FILE_NUM_ROWS)]
    meta += [[_FILE_NUM_ROWS, _I64, rows], [_FILE_ROW_GROUPS, _LIST, (_STRUCT, groups)]]
    meta.sort(key=lambda f: f[0])
    encoded = bytearray()
    _put_struct(encoded, meta)
    return bytes(encoded) + struct.pack("<I", len(encoded)) + MAGIC


def _alike(meta: list) -> list:
    """What every part must share with the first to be joined: schema and key-value metadata."""
    return [_field(meta, f) for f in (_FILE_SCHEMA, _FILE_KEY_VALUE)]


class Joiner:
    """One whole table built part by part while the parts are made (a run's chunk files, as
    their chunks are played, in order): each part's column chunks appended to ``dest``, its
    row groups kept, and the SHA-256 of the file taken on the way, so that what is left when
    the last part comes is that part and the footer. It never raises: a part that cannot be
    joined (not alike, unreadable, a full disk) makes it give up (``failed``), and the caller
    joins the parts otherwise. ``dest`` is a temporary file the caller renames when whole."""

    def __init__(self, dest: Path):
        self.dest, self.parts, self.rows, self.at = dest, 0, 0, len(MAGIC)
        self.first: list | None = None
        self.groups: list[bytes] = []
        self.digest = hashlib.sha256(MAGIC)
        self.failed = False
        try:
            with open(dest, "wb") as out:  # a leftover of a killed attempt is cut back
                out.write(MAGIC)
        except OSError:
            self.failed = True

    def add(self, part: Path) -> bool:
        """Append ``part``; ``False`` once it has given up."""
        if self.failed:
            return False
        try:
            meta, end = footer(part)
            if self.first is None:
                if any(_field(meta, f) for f in _FILE_ENCRYPTION):
                    raise NotStitchable("encryption")
                self.first = meta
            elif _alike(meta) != _alike(self.first):
                raise NotStitchable(f"{part} is not alike the first part")
            groups = _groups(meta, self.at - len(MAGIC))
            with open(part, "rb", buffering=0) as f:
                body = os.pread(f.fileno(), end - len(MAGIC), len(MAGIC))
            if len(body) != end - len(MAGIC):
                raise NotStitchable(f"{part} shrank while it was read")
            _write_at(self.dest, body, self.at)
        except (OSError, NotStitchable):
            self.discard()  # its room goes back at once: on a full disk the join at the end needs it
            return False
        self.digest.update(body)
        self.groups += groups
        self.rows += _field(meta, _FILE_NUM_ROWS)[2]
        self.at += len(body)
        self.parts += 1
        return True

    def close(self) -> str | None:
        """Write the footer; the whole file's SHA-256, or ``None`` where it gave up or holds no
        part (then the caller joins the parts otherwise)."""
        if self.failed or self.first is None:
            return None
        tail = _whole_footer(self.first, self.groups, self.rows)
        try:
            _write_at(self.dest, tail, self.at)
        except OSError:
            self.discard()
            return None
        self.digest.update(tail)
        return self.digest.hexdigest()

    def discard(self) -> None:
        self.failed = True
        with contextlib.suppress(OSError):
            self.dest.unlink(missing_ok=True)


def _write_at(path: Path, data: bytes, at: int) -> None:
    """``data`` into ``path`` at offset ``at``, whole (a full disk raises)."""
    fd = os.open(path, os.O_WRONLY)
    try:
        done = 0
        while done < len(data):
            done += os.pwrite(fd, memoryview(data)[done:], at + done)
    finally:
        os.close(fd)


def stitch(parts: list[Path], dest: Path) -> bool:
    """Write ``dest``: the rows of ``parts`` in order, as one parquet file. ``False``, with
    nothing written, where the parts are not alike (see the module). Each part's footer is read
    in turn and only its row groups, moved and encoded again (a few hundred bytes each), are
    kept: memory grows by that much per chunk, not by the footers' objects."""
    first, groups, spans, rows, at = None, [], [], 0, len(MAGIC)
    try:
        for part in parts:
            meta, end = footer(part)
            if first is None:
                first = meta
                if any(_field(first, f) for f in _FILE_ENCRYPTION):
                    return False
            elif _alike(meta) != _alike(first):
                return False
            groups += _groups(meta, at - len(MAGIC))
            rows += _field(meta, _FILE_NUM_ROWS)[2]
            spans.append((part, at, end - len(MAGIC)))
            at += end - len(MAGIC)
    except (OSError, NotStitchable):
        return False
    if first is None:
        return False
    with open(dest, "wb", buffering=0) as out:
        out.write(MAGIC)
        _copy_all(spans, out.fileno())
        out.seek(at)
        out.write(_whole_footer(first, groups, rows))
    return True


COPIERS = 8
"""Threads copying chunk files at once: the copies run in the kernel, without the GIL, and
the whole tables are made when every worker has ended, so the cores are free."""


def _copy_all(spans: list[tuple[Path, int, int]], dst: int) -> None:
    """Each ``(file, at, count)``: the file's ``count`` bytes after its ``PAR1`` to ``dst`` at
    ``at``; several at once, as each goes to its own place."""
    from concurrent.futures import ThreadPoolExecutor

    def one(span: tuple[Path, int, int]) -> None:
        part, at, count = span
        with open(part, "rb", buffering=0) as f:
            _copy(f.fileno(), dst, len(MAGIC), at, count)

    if len(spans) < 2:
        for span in spans:
            one(span)
        return
    with ThreadPoolExecutor(min(COPIERS, len(spans), os.cpu_count() or 1)) as pool:
        for _ in pool.map(one, spans):  # every copy's error, if any, raised here
            pass


def _copy(src: int, dst: int, src_at: int, dst_at: int, count: int) -> None:
    """``count`` bytes of ``src`` from ``src_at`` to ``dst`` at ``dst_at``: in the kernel where
    it can (no copy through this process), else through a buffer."""
    done = 0
    try:
        while done < count:
            sent = os.copy_file_range(src, dst, count - done, src_at + done, dst_at + done)
            if not sent:
                break
            done += sent
    except (AttributeError, OSError):  # an older kernel, another file system
        pass
    while done < count:
        data = os.pread(src, min(count - done, 1 << 20), src_at + done)
        if not data:
            raise OSError(f"a chunk file shrank while it was read ({count - done} bytes short)")
        os.pwrite(dst, data, dst_at + done)
        done += len(data)
