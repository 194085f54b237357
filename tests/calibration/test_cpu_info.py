"""What ``ovlab calibrate`` reads about the machine's CPU: the last-level cache from sysfs (a
fake tree here, so no test depends on the host)."""

from __future__ import annotations

from ovlab.sim.calibration.calibrate import last_level_cache_mb


def test_the_highest_cache_level_is_the_last_level_cache(tmp_path):
    for index, (level, size) in enumerate([(1, "32K"), (1, "32K"), (2, "2048K"), (3, "36M")]):
        folder = tmp_path / f"index{index}"
        folder.mkdir()
        (folder / "level").write_text(f"{level}\n")
        (folder / "size").write_text(f"{size}\n")
    assert last_level_cache_mb(str(tmp_path)) == 36.0
    assert last_level_cache_mb(str(tmp_path / "missing")) is None
