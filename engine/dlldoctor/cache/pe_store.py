"""A cache of PE facts across runs, keyed by content identity, in one SQLite file.

A wheel member is identified by its name, CRC-32 and size (the zip's central directory holds all three,
so a hit costs no inflating); a file on disk by its absolute path, device, inode, size and modification
time in nanoseconds, read again after parsing: a file that changed while it was read, or whose
modification time is too recent to tell a later same-size rewrite apart, is not stored. Defects
(corrupt, truncated, not-PE files) are stored like facts.

The facts are stored as versioned JSON with a CRC-32 of the row (uncompressed: torch_cpu.dll's 59,776
export names decode in ~25 ms this way, where inflating them again would add ~20 ms), and every value is
type-checked when read back: a row that fails either check is dropped and the file is read again. Nothing is ever unpickled. The file carries an application id and a schema version; a file
without them, or one SQLite reports as damaged, is replaced by a fresh cache, never trusted. WAL
journaling and a busy timeout let several scans share the file; a cache that cannot be written (locked
too long, read-only, full disk) only costs speed.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
import zlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from dlldoctor import __version__
from dlldoctor.cache.location import create_private, only_mine, private_folder
from dlldoctor.pe.layout import DEFECTS, DefectError
from dlldoctor.pe.model import Import, PEImage

FILE_NAME = "pe-facts.sqlite3"
APPLICATION_ID = 0x444C4C44  # "DLLD"
SCHEMA_VERSION = 1
FORMAT = 2  # the JSON layout of one row; 2: facts of the two-pass compact reader (1 could miss import names)
MAX_BYTES = 512 << 20  # oldest rows beyond this are dropped (torch 2.13's facts take ~6 MB)
RACY_NS = 2_000_000_000  # a file modified this recently is not stored: its mtime may not change again
BUSY_TIMEOUT_MS = 10_000

# Rows written by another dlldoctor version (or another PEImage layout) are never read.
_FIELDS = ",".join(f.name for f in fields(PEImage))
TAG = f"{__version__}/{FORMAT}/{zlib.crc32(_FIELDS.encode()):08x}"

Facts = PEImage | DefectError


def _storable(name: str) -> str:
    """A name SQLite can store: the undecodable bytes of a file name (lone surrogates) as ``\\xNN``."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def zip_key(name: str, crc: int, size: int) -> str:
    return f"zip:{crc:08x}:{size}:{_storable(name)}"


def file_key(path: str, stat: os.stat_result) -> str:
    return f"file:{stat.st_dev}:{stat.st_ino}:{stat.st_size}:{stat.st_mtime_ns}:{_storable(path)}"


def file_is_settled(stat: os.stat_result, now_ns: int | None = None) -> bool:
    """Whether a same-size rewrite of the file would surely change its mtime (else don't cache it)."""
    now = time.time_ns() if now_ns is None else now_ns
    return now - stat.st_mtime_ns >= RACY_NS


# ---- serialization ---------------------------------------------------------------------------------


def encode(facts: Facts) -> bytes:
    if isinstance(facts, DefectError):
        doc: dict[str, Any] = {
            "format": FORMAT,
            "kind": "defect",
            "defect": facts.defect,
            "message": str(facts),
        }
    else:
        doc = {
            "format": FORMAT,
            "kind": "pe",
            "machine": facts.machine,
            "is_dll": facts.is_dll,
            "size": facts.size,
            "imports": [_import_doc(i) for i in facts.imports],
            "delay_imports": [_import_doc(i) for i in facts.delay_imports],
            "export_name": facts.export_name,
            # Export names are C strings: they never hold NUL, so one joined string decodes fast.
            "exports": "\0".join(facts.exports),
            "export_ordinals": sorted(facts.export_ordinals),
            "forwarders": [list(pair) for pair in facts.forwarders],
            "linker_version": list(facts.linker_version),
            "file_version": facts.file_version,
            "product_name": facts.product_name,
            "dependent_load_flags": facts.dependent_load_flags,
            "parser": facts.parser,
            "notes": list(facts.notes),
        }
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")


def _import_doc(item: Import) -> list[Any]:
    return [item.dll, list(item.names), list(item.ordinals), item.delayed]


class _Invalid(ValueError):
    pass


def decode(payload: bytes) -> Facts:
    """Facts from a stored row; raises ``ValueError`` for anything that is not exactly what ``encode`` writes."""
    try:
        doc = json.loads(payload.decode("utf-8", "surrogatepass"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        raise _Invalid(f"undecodable row: {e}") from e
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise _Invalid("unknown row format")
    if doc.get("kind") == "defect":
        code, message = doc.get("defect"), doc.get("message")
        if code not in DEFECTS or not isinstance(message, str):
            raise _Invalid("bad defect row")
        error = DefectError(code)
        error.args = (message,)
        return error
    if doc.get("kind") != "pe":
        raise _Invalid("unknown row kind")
    exports = _str(doc, "exports")
    linker = _list(doc, "linker_version", int)
    if len(linker) != 2:
        raise _Invalid("bad linker version")
    forwarders = _list(doc, "forwarders", list)
    if any(len(pair) != 2 or not all(isinstance(x, str) for x in pair) for pair in forwarders):
        raise _Invalid("bad forwarders")
    return PEImage(
        machine=_str(doc, "machine"),
        is_dll=_typed(doc, "is_dll", bool),
        size=_typed(doc, "size", int),
        imports=tuple(_import(item, False) for item in _list(doc, "imports", list)),
        delay_imports=tuple(_import(item, True) for item in _list(doc, "delay_imports", list)),
        export_name=_optional_str(doc, "export_name"),
        exports=frozenset(exports.split("\0")) if exports else frozenset(),
        export_ordinals=frozenset(_list(doc, "export_ordinals", int)),
        forwarders=tuple((a, b) for a, b in forwarders),
        linker_version=(linker[0], linker[1]),
        file_version=_optional_str(doc, "file_version"),
        product_name=_optional_str(doc, "product_name"),
        dependent_load_flags=_typed(doc, "dependent_load_flags", int),
        parser=_str(doc, "parser"),
        notes=tuple(_list(doc, "notes", str)),
    )


def _typed(doc: Mapping[str, Any], key: str, kind: type) -> Any:
    value = doc.get(key)
    # bool is an int subclass: keep the two apart both ways.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _Invalid(f"bad {key}")
    return value


def _str(doc: Mapping[str, Any], key: str) -> str:
    value: str = _typed(doc, key, str)
    return value


def _optional_str(doc: Mapping[str, Any], key: str) -> str | None:
    return None if doc.get(key) is None else _str(doc, key)


def _list(doc: Mapping[str, Any], key: str, kind: type) -> list[Any]:
    value = _typed(doc, key, list)
    if not all(isinstance(x, kind) and not (kind is int and isinstance(x, bool)) for x in value):
        raise _Invalid(f"bad {key}")
    return list(value)


def _import(item: list[Any], delayed: bool) -> Import:
    if len(item) != 4 or not isinstance(item[0], str) or item[3] is not delayed:
        raise _Invalid("bad import")
    doc = {"names": item[1], "ordinals": item[2]}
    return Import(item[0], tuple(_list(doc, "names", str)), tuple(_list(doc, "ordinals", int)), delayed)


# ---- the SQLite file --------------------------------------------------------------------------------


class FactCache:
    """One open cache file. Use :meth:`open`; every method is best-effort and never raises."""

    def __init__(self, path: Path, connection: sqlite3.Connection, rebuilt: str | None = None) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = connection
        self.rebuilt = rebuilt  # why an existing file was replaced, if it was
        self.problem: str | None = None  # why the cache stopped working during this run, if it did
        self.hits = self.misses = self.stored = 0

    @classmethod
    def open(cls, directory: Path | None = None) -> FactCache | None:
        """Open (creating, or replacing when foreign or damaged) the cache in ``directory``.

        Returns ``None`` when the folder cannot hold a cache (not writable, not a folder).
        """
        folder = private_folder(directory)
        if folder is None:
            return None
        path = folder / FILE_NAME
        rebuilt = None
        # Facts read from here decide what a scan reports: a file another user could have written
        # (or a link to one) is never read, but replaced by a fresh one of this user's own.
        foreign = [p.name for p in _companions(path) if not only_mine(p)]
        if foreign:
            rebuilt = f"{', '.join(foreign)} could have been written by another user"
        try:
            if rebuilt is not None:
                raise _Foreign(rebuilt)
            create_private(path)
            connection = _connect(path)
            try:
                _prepare(connection)
            except BaseException:
                connection.close()
                raise
        except _Foreign as e:
            rebuilt = str(e)
        except sqlite3.DatabaseError as e:
            if _is_busy(e):
                return None
            rebuilt = f"unreadable cache file ({e})"
        if rebuilt is not None:
            try:
                connection = _replace(path)
            except (sqlite3.Error, OSError):
                return None
        return cls(path, connection, rebuilt)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> FactCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get_many(self, keys: Iterable[str]) -> dict[str, Facts]:
        """The cached facts for those keys that have a valid row."""
        wanted = list(dict.fromkeys(keys))
        found: dict[str, Facts] = {}
        if self._db is None or not wanted:
            return found
        bad = []
        try:
            for start in range(0, len(wanted), 500):
                batch = wanted[start : start + 500]
                marks = ",".join("?" * len(batch))
                rows = self._db.execute(
                    f"SELECT key, check_, payload FROM facts WHERE tag = ? AND key IN ({marks})",
                    [TAG, *batch],
                ).fetchall()
                for key, check, payload in rows:
                    try:
                        if not isinstance(payload, bytes) or zlib.crc32(payload) != check:
                            raise _Invalid("checksum mismatch")
                        found[key] = decode(payload)
                    except ValueError:
                        bad.append(key)
        except sqlite3.DatabaseError as e:
            self._fail(e)
            return {}
        if bad:
            self._write(lambda db: db.executemany("DELETE FROM facts WHERE key = ?", [(k,) for k in bad]))
        self.hits += len(found)
        self.misses += len(wanted) - len(found)
        return found

    def get(self, key: str) -> Facts | None:
        return self.get_many([key]).get(key)

    def put_many(self, items: Iterable[tuple[str, Facts]]) -> None:
        self.put_encoded((key, encode(facts)) for key, facts in items)

    def put_encoded(self, items: Iterable[tuple[str, bytes]]) -> None:
        """Store rows made by :func:`encode` (which threads can run in parallel) in one transaction."""
        rows = [(key, TAG, zlib.crc32(payload), len(payload), payload) for key, payload in items]
        if not rows or self._db is None:
            return

        def write(db: sqlite3.Connection) -> None:
            db.executemany(
                "INSERT OR REPLACE INTO facts(key, tag, check_, nbytes, payload) VALUES (?, ?, ?, ?, ?)", rows
            )
            (total,) = db.execute("SELECT total(nbytes) FROM facts").fetchone()
            if total > MAX_BYTES:
                _prune(db, total - MAX_BYTES)

        if self._write(write):
            self.stored += len(rows)

    def _write(self, action: Any) -> bool:
        """Run ``action`` in one transaction that takes the write lock first (waiting up to the timeout)."""
        if self._db is None:
            return False
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                action(self._db)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.DatabaseError as e:
            self._fail(e)
            return False
        return True

    def _fail(self, error: sqlite3.DatabaseError) -> None:
        """Busy: skip this write. Damaged under our feet: replace the file for the next run, stop using it."""
        if _is_busy(error):
            self.problem = f"cache busy, not updated: {error}"
            return
        self.problem = f"cache file damaged, rebuilt: {error}"
        self.close()
        with contextlib.suppress(sqlite3.Error, OSError):
            _replace(self.path).close()


class _Foreign(Exception):
    pass


_COLUMNS = ["key", "tag", "check_", "nbytes", "payload"]
_CREATE = (
    "CREATE TABLE IF NOT EXISTS facts (key TEXT PRIMARY KEY, tag TEXT NOT NULL, check_ INTEGER NOT NULL, "
    "nbytes INTEGER NOT NULL, payload BLOB NOT NULL)"
)


def _prune(db: sqlite3.Connection, excess: float) -> None:
    """Drop the oldest-written rows until ``excess`` bytes are gone."""
    cutoff = None
    for rowid, nbytes in db.execute("SELECT rowid, nbytes FROM facts ORDER BY rowid"):
        excess -= nbytes
        cutoff = rowid
        if excess <= 0:
            break
    if cutoff is not None:
        db.execute("DELETE FROM facts WHERE rowid <= ?", (cutoff,))


def _connect(path: Path) -> sqlite3.Connection:
    # Autocommit: every transaction is an explicit BEGIN IMMEDIATE ... COMMIT.
    return sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
    )


def _prepare(db: sqlite3.Connection) -> None:
    """Check that the file is our cache (creating it when empty); raise ``_Foreign`` otherwise."""
    # One statement, so one snapshot: read one by one, another process's creation could commit in between and an
    # id of 0 be seen beside its table, which would look foreign and be replaced, its first writes lost.
    app, version, tables = db.execute(
        "SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM pragma_user_version), "
        "(SELECT count(*) FROM sqlite_master)"
    ).fetchone()
    if app == APPLICATION_ID and version == SCHEMA_VERSION:
        _check_tables(db)
        if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            db.execute("PRAGMA journal_mode = WAL")
        return
    if app != 0 or version != 0 or tables:
        raise _Foreign(
            f"not a dlldoctor cache of schema {SCHEMA_VERSION} "
            f"(application id 0x{app:08x}, version {version})"
        )
    _create(db)


def _create(db: sqlite3.Connection) -> None:
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(_CREATE)
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("PRAGMA synchronous = NORMAL")


def _check_tables(db: sqlite3.Connection) -> None:
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    db.execute("PRAGMA synchronous = NORMAL")
    columns = [row[1] for row in db.execute("PRAGMA table_info(facts)")]
    if columns != _COLUMNS:
        raise _Foreign("the cache's facts table has an unknown layout")


def _replace(path: Path) -> sqlite3.Connection:
    """Build a fresh cache beside ``path`` and move it into place (atomic for concurrent readers)."""
    fresh = path.with_name(f"{path.name}.{os.getpid()}.new")
    for leftover in _companions(fresh):
        leftover.unlink(missing_ok=True)
    create_private(fresh)
    connection = _connect(fresh)
    try:
        _create_plain(connection)  # rollback journal: the whole cache is in the one file that moves
    finally:
        connection.close()
    for stale in _companions(path)[1:]:
        stale.unlink(missing_ok=True)
    fresh.replace(path)
    connection = _connect(path)
    _prepare(connection)
    return connection


def _create_plain(db: sqlite3.Connection) -> None:
    db.execute(_CREATE)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _companions(path: Path) -> list[Path]:
    return [
        path,
        path.with_name(path.name + "-wal"),
        path.with_name(path.name + "-shm"),
        path.with_name(path.name + "-journal"),
    ]


def _is_busy(error: sqlite3.DatabaseError) -> bool:
    text = str(error)
    return isinstance(error, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def iter_rows(path: Path) -> Iterator[tuple[str, str]]:
    """(key, tag) of every row: for tests and ``bench/``."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        yield from db.execute("SELECT key, tag FROM facts ORDER BY rowid")
