"""Atomic writes: all or nothing, and files with the user's usual permissions."""

import os

import pytest

from papillon.files import write_atomic


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
    with pytest.raises(FileExistsError, match="use --force"):
        write_atomic(target, "new", force=False)
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
