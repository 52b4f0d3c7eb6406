"""Measure `papillon scan` on photos from an independent generator: tests/photogen2 (issue 8) or tests/photogen3 (issue 21).

    python bench/accuracy_independent.py                      # 200 photogen2 photos, seeds 900000-900199
    python bench/accuracy_independent.py --generator photogen3 --seed 700000   # photogen3's held-out seeds
    python bench/accuracy_independent.py --seed 910000 -n 50 --max-megapixels 5
    python bench/accuracy_independent.py --json > result.json  # the same figures and every photo, as JSON
    python bench/accuracy_independent.py --keep out/           # also keep each photo, its truth and the scan

The scanner is run as a black box: ``papillon scan --json`` (the same interpreter, ``-m papillon``) on
batches of photos; a refused photo is the line ``papillon scan: FILE: message`` on stderr.

Comparison rules (per item, on photos the scanner read):

* plots: the scanner's reading against the truth's *kind*: ``empty``, a flower colour (``red``,
  ``blue``, ``yellow``, ``purple``), ``field`` or ``bramble``.  What a field holds (critter or feature)
  is asked separately by the scanner and is not compared: a field with a Pond is right when read ``field``.
* edges (40): ``brick`` or ``none``; an erased ghost's truth is ``none`` (reading it ``brick`` unflagged is an error).
* butterflies (25): ``filled`` or ``empty``; a tick, cross or scribble in the bubble is ``filled``.
* an item is *flagged* when the scanner marks it for review (``review: true``), whatever it read;
  otherwise it is *right* or *confidently wrong*.  An item missing from the output counts as missing.

Per photo: read or refused, with the refusal message.  A refusal of a photo that should be refused
"names its cause" when the message contains one of the truth's ``refuse_words`` (a keyword heuristic:
check the messages listed).  Nothing here was tuned on the scanner's results.

Per read photo, the *checks* a person is left with: its flagged items (``review: true``, asked or not) and the
ones actually asked (``asked`` in the scan's JSON: doubts that can change the score); the table gives how many
read photos need 0, at most 2, 3-17 and more than 17 of each.

A generator is a package in ``tests/`` with ``make_photo(seed, max_megapixels=...)`` returning an object with
``.jpeg`` (bytes) and ``.truth`` (photogen2's truth format).
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

GENERATORS = {"photogen2": 900000, "photogen3": 700000}
"""Each generator and its default first seed (photogen3: 700000 and up are held out, below 500000 development)."""
CHECK_BINS = ((0, 0, "0"), (1, 2, "1-2"), (3, 17, "3-17"), (18, 10**9, "over 17"))
"""Buckets of the per-photo number of checks (issue 21: 38 taps type a whole garden in)."""


def generator(name: str) -> Callable[..., Any]:
    """The ``make_photo`` of the generator package ``tests/<name>``."""
    module = importlib.import_module(name)
    make: Callable[..., Any] = module.make_photo
    return make


LETTERS = {"R": "red", "B": "blue", "Y": "yellow", "P": "purple", ".": "empty", "F": "field", "X": "bramble"}
CONFIDENCE_BINS = (0.0, 0.5, 0.7, 0.9, 0.95, 0.99, 0.999, 1.0001)
WARP_BINS = (0.0, 0.2, 0.5, 1.0, 2.0, 1e9)


def normalise(kind: str, read: str) -> str:
    """The scanner's reading in the truth's words."""
    text = str(read).strip()
    if kind == "plot":
        if text in LETTERS:
            return LETTERS[text]
        text = text.lower().rstrip("*")
        if len(text) == 2 and text.isalpha() and text not in ("x",):
            return "field"
        return text
    return text.lower()


def scan(paths: list[Path]) -> tuple[dict[str, dict[str, Any]], dict[str, str], float]:
    """Run ``papillon scan --json`` on ``paths``: results by file, refusal messages by file, seconds."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "papillon", "scan", "--json", *map(str, paths)], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    results = {}
    for line in proc.stdout.splitlines():
        if line.strip().startswith("{"):
            data = json.loads(line)
            results[str(data.get("source"))] = data
    refusals = {}
    for line in proc.stderr.splitlines():
        for path in paths:
            prefix = f"papillon scan: {path}: "
            if line.startswith(prefix):
                refusals[str(path)] = line[len(prefix) :]
    for path in paths:
        if str(path) not in results and str(path) not in refusals:
            refusals[str(path)] = f"(no output; exit status {proc.returncode}: {proc.stderr.strip()[-200:]})"
    return results, refusals, seconds


def compare(truth: dict[str, Any], result: dict[str, Any]) -> list[dict[str, Any]]:
    """One record per item: kind, name, truth, read, confidence, outcome (right / flagged / wrong / missing), tags."""
    found = {}
    for item in result.get("items", []):
        name = str(item["item"])
        kind = str(item["kind"])
        key = (kind, name.split(" ", 1)[1] if " " in name else name)
        found[key] = item
    records = []
    for kind, group in (("plot", "plots"), ("edge", "edges"), ("butterfly", "butterflies")):
        for name, expected in truth[group].items():
            item = found.get((kind, name))
            tags = sorted(set(expected["tags"]) | set(truth["tags"]))
            record = {"kind": kind, "item": name, "truth": expected["truth"], "tags": tags, "warp_mm": expected.get("warp_mm", 0.0)}
            if item is None:
                records.append(record | {"read": None, "confidence": None, "outcome": "missing"})
                continue
            read = normalise(kind, item["read"])
            correct = read == expected["truth"]
            outcome = "flagged" if item.get("review") else ("right" if correct else "wrong")
            records.append(record | {"read": read, "confidence": float(item["confidence"]), "correct": correct, "outcome": outcome})
    return records


def run(
    seed: int, count: int, batch: int, max_mp: float, keep: Path | None, cache: bool = False, generator_name: str = "photogen2"
) -> dict[str, Any]:
    """With ``cache``, photos and truths already in ``keep`` (same seed, same size limit) are reused, not made again."""
    make_photo = generator(generator_name)
    photos = []
    gen_seconds = scan_seconds = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        folder = keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for first in range(seed, seed + count, batch):
            paths, truths = [], {}
            for s in range(first, min(first + batch, seed + count)):
                path = folder / f"photo-{s}.jpg"
                truth_path = folder / f"photo-{s}.truth.json"
                if cache and path.exists() and truth_path.exists():
                    truth = json.loads(truth_path.read_text())
                else:
                    start = time.perf_counter()
                    photo = make_photo(s, max_megapixels=max_mp)
                    gen_seconds += time.perf_counter() - start
                    path.write_bytes(photo.jpeg)
                    truth = photo.truth
                    if keep:
                        truth_path.write_text(json.dumps(truth, indent=1))
                paths.append(path)
                truths[str(path)] = truth
            results, refusals, seconds = scan(paths)
            scan_seconds += seconds
            for path in paths:
                truth = truths[str(path)]
                result = results.get(str(path))
                if keep and result is not None:
                    path.with_suffix(".scan.json").write_text(json.dumps(result, indent=1))
                entry = {
                    "seed": truth["seed"],
                    "should_read": truth["should_read"],
                    "refuse_cause": truth["refuse_cause"],
                    "read": result is not None,
                    "message": refusals.get(str(path)),
                    "tags": truth["tags"],
                    "flat": truth["flat"],
                    "follows_key": truth["follows_key"],
                    "size": truth["size"],
                    "items": compare(truth, result) if result is not None else [],
                    "asked": len(result["asked"]) if result is not None and "asked" in result else None,
                }
                if entry["message"] and truth["refuse_words"]:
                    entry["names_cause"] = any(w in entry["message"].lower() for w in truth["refuse_words"])
                photos.append(entry)
            print(f"  {len(photos)}/{count} photos", file=sys.stderr, flush=True)
    return summarise(photos, gen_seconds, scan_seconds)


def _pct(part: float, whole: float) -> float:
    return round(100.0 * part / whole, 3) if whole else 0.0


def summarise(photos: list[dict[str, Any]], gen_seconds: float, scan_seconds: float) -> dict[str, Any]:
    should = [p for p in photos if p["should_read"]]
    refuse = [p for p in photos if not p["should_read"]]
    read = [p for p in should if p["read"]]
    items = [i for p in read for i in p["items"]]
    outcomes = Counter(i["outcome"] for i in items)
    flagged_wrong = sum(1 for i in items if i["outcome"] == "flagged" and not i.get("correct"))
    by_kind = {}
    for kind in ("plot", "edge", "butterfly"):
        group = [i for i in items if i["kind"] == kind]
        c = Counter(i["outcome"] for i in group)
        by_kind[kind] = {"items": len(group), "right": c["right"], "flagged": c["flagged"], "wrong": c["wrong"], "missing": c["missing"]}
    errors = [i for i in items if i["outcome"] == "wrong"]
    confusions = Counter(f"{i['kind']} {i['truth']} -> {i['read']}" for i in errors)
    tag_items: Counter[str] = Counter()
    tag_errors: Counter[str] = Counter()
    tag_flags: Counter[str] = Counter()
    for i in items:
        for t in i["tags"]:
            tag_items[t] += 1
            tag_errors[t] += i["outcome"] == "wrong"
            tag_flags[t] += i["outcome"] == "flagged"
    tags = {
        t: {"items": n, "wrong": tag_errors[t], "wrong_pct": _pct(tag_errors[t], n), "flagged_pct": _pct(tag_flags[t], n)}
        for t, n in sorted(tag_items.items(), key=lambda kv: (-tag_errors[kv[0]], kv[0]))
    }
    calibration = []
    for lo, hi in itertools.pairwise(CONFIDENCE_BINS):
        group = [i for i in items if i["confidence"] is not None and lo <= i["confidence"] < hi]
        right = sum(1 for i in group if i.get("correct"))
        calibration.append(
            {"bin": f"[{lo:.3g}, {min(hi, 1.0):.3g}{']' if hi > 1 else ')'}", "items": len(group), "accuracy_pct": _pct(right, len(group))}
        )
    warp = []
    for lo, hi in itertools.pairwise(WARP_BINS):
        group = [i for i in items if lo <= i["warp_mm"] < hi]
        warp.append(
            {
                "bin": f"{lo}-{hi if hi < 1e8 else 'inf'} mm",
                "items": len(group),
                "wrong": sum(i["outcome"] == "wrong" for i in group),
                "flagged": sum(i["outcome"] == "flagged" for i in group),
            }
        )
    clean = [p for p in read if p["flat"] and p["follows_key"]]
    clean_items = [i for p in clean for i in p["items"]]
    # The lens's barrel distortion bends a flat sheet's image too: the flat set without it, separately.
    straight = [p for p in clean if "barrel" not in p["tags"]]
    straight_items = [i for p in straight for i in p["items"]]
    refusals_of_good = Counter(p["message"] for p in should if not p["read"])
    flags_per_photo = [sum(i["outcome"] == "flagged" for i in p["items"]) for p in read]
    asked_per_photo = [p["asked"] for p in read if p.get("asked") is not None]
    return {
        "photos": len(photos),
        "should_read": len(should),
        "read_of_should_read": len(read),
        "should_refuse": len(refuse),
        "refused_of_should_refuse": sum(1 for p in refuse if not p["read"]),
        "refusals_naming_cause": sum(1 for p in refuse if p.get("names_cause")),
        "items": len(items),
        "right_pct": _pct(outcomes["right"], len(items)),
        "flagged_pct": _pct(outcomes["flagged"], len(items)),
        "flagged_but_wrong": flagged_wrong,
        "wrong": outcomes["wrong"],
        "wrong_pct": _pct(outcomes["wrong"], len(items)),
        "missing": outcomes["missing"],
        "read_photos_with_confident_error": sum(1 for p in read if any(i["outcome"] == "wrong" for i in p["items"])),
        "flat_by_key_photos": len(clean),
        "flat_by_key_items": len(clean_items),
        "flat_by_key_wrong": sum(1 for i in clean_items if i["outcome"] == "wrong"),
        "flat_by_key_no_barrel_photos": len(straight),
        "flat_by_key_no_barrel_items": len(straight_items),
        "flat_by_key_no_barrel_wrong": sum(1 for i in straight_items if i["outcome"] == "wrong"),
        "checks_per_photo": {"flagged": check_bins(flags_per_photo), "asked": check_bins(asked_per_photo) if asked_per_photo else None},
        "by_kind": by_kind,
        "confusions": dict(confusions.most_common()),
        "by_tag": tags,
        "calibration": calibration,
        "by_warp": warp,
        "refusals_of_should_read": dict(refusals_of_good.most_common()),
        "should_refuse_detail": [
            {
                "seed": p["seed"],
                "cause": p["refuse_cause"],
                "refused": not p["read"],
                "message": p["message"],
                "names_cause": p.get("names_cause", False),
            }
            for p in refuse
        ],
        "seconds_per_photo_generate": round(gen_seconds / max(len(photos), 1), 2),
        "seconds_per_photo_scan": round(scan_seconds / max(len(photos), 1), 2),
        "per_photo": photos,
    }


def check_bins(counts: list[int]) -> dict[str, int]:
    """How many photos fall in each of :data:`CHECK_BINS` (and ``at most 2``), from each photo's number of checks.

    >>> check_bins([0, 0, 1, 5, 30])
    {'0': 2, '1-2': 1, '3-17': 1, 'over 17': 1, 'at most 2': 3, 'photos': 5}
    """
    bins = {label: sum(lo <= n <= hi for n in counts) for lo, hi, label in CHECK_BINS}
    return bins | {"at most 2": sum(n <= 2 for n in counts), "photos": len(counts)}


def check_lines(s: dict[str, Any]) -> list[str]:
    """The per-photo distribution of checks as table rows (flagged items, and those asked when the scan says)."""
    lines = ["", "| checks per read photo | photos | 0 | 1-2 | 3-17 | over 17 | at most 2 |", "|---|---|---|---|---|---|---|"]
    for what, bins in s["checks_per_photo"].items():
        if bins:
            n = bins["photos"]
            cells = " | ".join(f"{bins[label]} ({_pct(bins[label], n):.0f} %)" for label in ("0", "1-2", "3-17", "over 17", "at most 2"))
            lines.append(f"| {what} | {n} | {cells} |")
    return lines


def table(s: dict[str, Any]) -> str:
    should, read, refuse = s["should_read"], s["read_of_should_read"], s["should_refuse"]
    lines = [
        "| | result |",
        "|---|---|",
        f"| photos that should be read | {should}: {read} read, {should - read} refused |",
        f"| photos that should be refused | {refuse}: {s['refused_of_should_refuse']} refused, "
        f"{s['refusals_naming_cause']} naming the cause (keyword check) |",
        f"| items on read photos | {s['items']}: {s['right_pct']} % right, {s['flagged_pct']} % flagged "
        f"({s['flagged_but_wrong']} of them wrong), **{s['wrong']} confidently wrong ({s['wrong_pct']} %)**, {s['missing']} missing |",
        f"| read photos with at least one confident error | **{s['read_photos_with_confident_error']} of {read}** |",
        f"| flat photos, no glare, marks as the key says | {s['flat_by_key_photos']} photos, {s['flat_by_key_items']} items: "
        f"{s['flat_by_key_wrong']} confidently wrong |",
        f"| the same without lens barrel distortion (k1 < -0.02) | {s['flat_by_key_no_barrel_photos']} photos, "
        f"{s['flat_by_key_no_barrel_items']} items: {s['flat_by_key_no_barrel_wrong']} confidently wrong |",
        f"| seconds per photo | generate {s['seconds_per_photo_generate']}, scan {s['seconds_per_photo_scan']} (subprocess, batch) |",
        "",
        "| item kind | items | right | flagged | confidently wrong | missing |",
        "|---|---|---|---|---|---|",
    ]
    for kind, k in s["by_kind"].items():
        lines.append(f"| {kind} | {k['items']} | {k['right']} | {k['flagged']} | {k['wrong']} | {k['missing']} |")
    lines += check_lines(s)
    lines += ["", "| confident error (kind truth -> read) | count |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in s["confusions"].items()] or ["| (none) | 0 |"]
    lines += ["", "| tag (item or photo) | items | confidently wrong | % wrong | % flagged |", "|---|---|---|---|---|"]
    lines += [f"| {t} | {v['items']} | {v['wrong']} | {v['wrong_pct']} | {v['flagged_pct']} |" for t, v in s["by_tag"].items()]
    lines += ["", "| confidence | items | accuracy % |", "|---|---|---|"]
    lines += [f"| {c['bin']} | {c['items']} | {c['accuracy_pct']} |" for c in s["calibration"]]
    lines += ["", "| one homography's misplacement of the item (true warp) | items | confidently wrong | flagged |", "|---|---|---|---|"]
    lines += [f"| {w['bin']} | {w['items']} | {w['wrong']} | {w['flagged']} |" for w in s["by_warp"]]
    lines += ["", "| refusal of a photo that should be read | count |", "|---|---|"]
    lines += [f"| {m} | {n} |" for m, n in s["refusals_of_should_read"].items()] or ["| (none) | 0 |"]
    lines += ["", "| should be refused: seed, cause | refused | message |", "|---|---|---|"]
    lines += [
        f"| {d['seed']} {d['cause']} | {'yes' if d['refused'] else '**no**'} | {d['message'] or ''} |" for d in s["should_refuse_detail"]
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--generator", choices=sorted(GENERATORS), default="photogen2", help="the photo generator in tests/ (default photogen2)"
    )
    parser.add_argument("--seed", type=int, help="first seed (default: photogen2 900000, photogen3 700000, its held-out seeds)")
    parser.add_argument("-n", "--count", type=int, default=200)
    parser.add_argument("--batch", type=int, default=10, help="photos per scanner process")
    parser.add_argument("--max-megapixels", type=float, default=12.5)
    parser.add_argument("--json", action="store_true", help="print the summary and every photo's comparison as JSON")
    parser.add_argument("--keep", type=Path, help="keep photos, truths and scans in this folder")
    parser.add_argument("--cache", action="store_true", help="with --keep: reuse the photos already kept there (same --max-megapixels)")
    parser.add_argument("--save", type=Path, help="also write the JSON to this file")
    parser.add_argument("--summary-of", type=Path, help="summarise a JSON saved by --save again (no photos made)")
    args = parser.parse_args()
    if args.summary_of:
        saved = json.loads(args.summary_of.read_text())
        n = len(saved["per_photo"])
        summary = summarise(saved["per_photo"], saved["seconds_per_photo_generate"] * n, saved["seconds_per_photo_scan"] * n)
        args.seed, args.count = saved["per_photo"][0]["seed"], n
    else:
        if args.seed is None:
            args.seed = GENERATORS[args.generator]
        summary = run(args.seed, args.count, args.batch, args.max_megapixels, args.keep, args.cache, args.generator)
    if args.save:
        args.save.write_text(json.dumps(summary, indent=1))
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(f"papillon scan on {args.generator} photos, seeds {args.seed}-{args.seed + args.count - 1}\n")
        print(table(summary))


if __name__ == "__main__":
    main()
