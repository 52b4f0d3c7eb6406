"""Atomic writes: all or nothing, and files with the user's usual permissions."""

import errno
import json
import os
import stat
import time
import tomllib
from pathlib import Path

import pytest

from papillon.files import STALE_SECONDS, TEMP_SUFFIX, TooLargeError, loads_json, loads_toml, read_text, write_atomic


def test_writes_text_and_bytes_and_follows_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "a.txt", "héllo")
        write_atomic(tmp_path / "b.bin", b"\x00\x01")
    finally:
        os.umask(old)
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "héllo"
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"
    assert (tmp_path / "a.txt").stat().st_mode & 0o777 == 0o644


def test_refuses_to_overwrite_without_force(tmp_path):
    target = tmp_path / "out.pdf"
    target.write_text("keep me")
    with pytest.raises(FileExistsError, match="it exists") as refused:  # the front end names its own option to overwrite
        write_atomic(target, "new", force=False)
    assert refused.value.errno == errno.EEXIST and refused.value.filename == str(target)
    assert target.read_text() == "keep me"
    write_atomic(target, "new")
    assert target.read_text() == "new"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "out.txt"
    target.write_text("old")

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="No space left"):
        write_atomic(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_stale_temporaries_of_a_killed_write_are_removed_on_the_next_write(tmp_path):
    # A kill -9 between mkstemp and the rename leaves these; the next write to the folder removes them
    # once they are older than any write takes (STALE_SECONDS), and never touches other files or fresh ones.
    old = time.time() - STALE_SECONDS - 60
    stale = [
        tmp_path / f".sheets.pdf.abc_1234{TEMP_SUFFIX}",
        tmp_path / ".other.png.zz9zz9zz.papillon-tmp",
        tmp_path / ".out.txt.k2j4h6g8.tmp",
    ]
    fresh = tmp_path / f".sheets.pdf.fresh123{TEMP_SUFFIX}"
    foreign = [tmp_path / ".notes.txt.abcdefgh.tmp", tmp_path / ".x.tmp", tmp_path / "keep.papillon-tmp"]
    for path in [*stale, fresh, *foreign]:
        path.write_bytes(b"partial")
        if path != fresh:
            os.utime(path, (old, old))
    write_atomic(tmp_path / "out.txt", "new")
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted(["out.txt", fresh.name, *(p.name for p in foreign)])


def test_a_device_is_written_as_a_stream_without_force(tmp_path):
    before = os.stat("/dev/null")
    write_atomic("/dev/null", "nothing", force=False)
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino
    assert not list(Path("/dev").glob(".null.*"))


def test_a_symlink_is_followed_the_link_stays(tmp_path):
    target = tmp_path / "real.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    with pytest.raises(FileExistsError):
        write_atomic(link, "new", force=False)
    write_atomic(link, "new")
    assert link.is_symlink() and target.read_text() == "new"
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(tmp_path / "made.txt")
    write_atomic(dangling, "made")
    assert dangling.is_symlink() and (tmp_path / "made.txt").read_text() == "made"


def test_a_directory_is_refused(tmp_path):
    with pytest.raises(IsADirectoryError):
        write_atomic(tmp_path, "x")


def test_reading_is_bounded_and_drops_a_byte_order_mark(tmp_path):
    path = tmp_path / "e.toml"
    path.write_bytes(b"\xef\xbb\xbfa = 1\n")
    assert read_text(path) == "a = 1\n"
    with pytest.raises(TooLargeError, match="over 1 kB: is this the right file"):
        read_text("/dev/zero", limit=1000)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 65, "nested deeper than 64 levels: line 1 column 65 (char 64)"),
        ('["[[[[", ' + "[" * 63 + "]" * 63 + "]", None),  # brackets in a string do not count
        ('{"a": ' + "1" * 101 + "}", "a number of more than 100 digits: line 1 column 7 (char 6)"),
        ('{"a": "' + "1" * 500 + '"}', None),  # digits in a string are text
    ],
)
def test_json_is_bounded_in_depth_and_digits(text, message):
    if message is None:
        assert loads_json(text) is not None
    else:
        with pytest.raises(json.JSONDecodeError) as caught:
            loads_json(text)
        assert str(caught.value) == message


def test_toml_is_bounded_in_depth_and_digits():
    assert loads_toml("a = [[1]]") == {"a": [[1]]}
    for text, message in [
        ("a = " + "[" * 33 + "]" * 33, "nested deeper than 32 levels"),
        ("a = " + "[" * 2000 + "]" * 2000, "nested deeper than 32 levels"),
        ("a = " + "9" * 101, "a number of more than 100 digits"),
        ("a = " + "9" * 5000, "a number of more than 100 digits"),
    ]:
        with pytest.raises(tomllib.TOMLDecodeError, match=message):
            loads_toml(text)
