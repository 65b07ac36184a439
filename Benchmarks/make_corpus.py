#!/usr/bin/env python3
"""Deterministic asset trees for Zinc's benchmarks and scale tests.

A generated tree looks like a mobile app's downloadable content: incompressible
images, audio that compresses a little, very compressible text and JSON, folders
nested up to three deep, and a few byte-identical duplicates under shared/.
The same arguments always produce the same bytes (file times aside).

Command line (through the `make-corpus` wrapper next to this file):
  make-corpus DIR [--files N] [--mb MB] [--seed S]   new tree of about MB megabytes
  make-corpus DIR --mutate PERCENT [--seed S]        content update, in place
  make-corpus DIR --big-file SIZE [--seed S]         DIR/big.bin, incompressible
  make-corpus DIR --sparse-file SIZE                 DIR/sparse.bin, a hole of zeros
SIZE takes binary suffixes: 512K, 256M, 4G (also 4GiB).

Library (for tests):
  from make_corpus import generate, mutate
  generate(dir, files, mb, seed); mutate(dir, percent, seed)
"""
import argparse
import functools
import itertools
import os
import random
import re
import shutil
import sys
from array import array
from typing import NamedTuple


class Kind(NamedTuple):
    ext: str
    weight: int   # relative frequency among generated files
    min_kib: int  # size range before scaling to the requested total
    max_kib: int
    content: str  # "noise", "audio" or "text"


KINDS = (
    Kind("jpg", 30, 16, 512, "noise"),
    Kind("png", 15, 4, 256, "noise"),
    Kind("caf", 15, 32, 1024, "audio"),
    Kind("json", 20, 1, 64, "text"),
    Kind("js", 10, 1, 128, "text"),
    Kind("txt", 10, 1, 32, "text"),
)
WEIGHTS = [kind.weight for kind in KINDS]
# Expected size of one file at scale 1; scaling by requested/expected hits the requested total.
MEAN_KIB = sum(k.weight * (k.min_kib + k.max_kib) / 2 for k in KINDS) / sum(WEIGHTS)

FOLDER_STEMS = ("lesson", "level", "pack", "unit")
VOCABULARY = (
    "le la les un une des chat chien maison rouge bleu grand petit "
    "manger boire aller venir voir savoir faire dire pouvoir vouloir "
    "adjective noun verb lesson level score audio image sprite"
).split()
DUPLICATE_SHARE = 0.03
PCM_TRACK_BYTES = 4 << 20
CHUNK_BYTES = 1 << 20


def noise_bytes(rng, size):
    """Stands in for already-compressed images: zlib cannot shrink it."""
    return rng.randbytes(size)


@functools.lru_cache(maxsize=1)
def pcm_track():
    """4 MiB of 16-bit little-endian PCM: a clamped random walk with steps of up to ±900.

    Neighbouring samples are close, so zlib saves a little, as with real recordings.
    Built once, from its own fixed seed, so every corpus shares the same track.
    """
    rng = random.Random(7)
    steps = (rng.randint(-900, 900) for _ in range(PCM_TRACK_BYTES // 2))
    walk = itertools.accumulate(steps, lambda level, step: max(-32768, min(32767, level + step)))
    samples = array("h", walk)
    if sys.byteorder == "big":
        samples.byteswap()
    return samples.tobytes()


def audio_bytes(rng, size):
    """A slice of the shared PCM track, starting on a sample boundary."""
    track = pcm_track()
    if size >= len(track):
        return (track * (size // len(track) + 1))[:size]
    start = 2 * rng.randrange((len(track) - size) // 2 + 1)
    return track[start:start + size]


def text_bytes(rng, size):
    """Space-separated words: compresses very well, like JSON and scripts."""
    # A word plus its space takes at least 3 bytes, so this many words always fills `size`.
    words = rng.choices(VOCABULARY, k=size // 3 + 1)
    return " ".join(words).encode()[:size]


CONTENT = {"noise": noise_bytes, "audio": audio_bytes, "text": text_bytes}


def write_asset(rng, root, index, scale):
    """Writes one new asset of a random kind in a random folder; returns its path."""
    kind = rng.choices(KINDS, weights=WEIGHTS)[0]
    size = int(rng.randint(kind.min_kib, kind.max_kib) * 1024 * scale)
    folders = [f"{rng.choice(FOLDER_STEMS)}{rng.randint(1, 40):02d}" for _ in range(rng.randint(0, 3))]
    path = os.path.join(root, *folders, f"asset-{index:06d}.{kind.ext}")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(CONTENT[kind.content](rng, size))
    return path


def generate(dir, files=2000, mb=200.0, seed=1):
    """Creates `files` files totalling about `mb` MiB under `dir`."""
    rng = random.Random(seed)
    scale = mb * 1024 / (files * MEAN_KIB)
    originals = []
    for index in range(files):
        if originals and rng.random() < DUPLICATE_SHARE:
            source = rng.choice(originals)
            ext = os.path.splitext(source)[1]
            copy = os.path.join(dir, "shared", f"copy-{index:06d}{ext}")
            os.makedirs(os.path.dirname(copy), exist_ok=True)
            shutil.copyfile(source, copy)
        else:
            originals.append(write_asset(rng, dir, index, scale))


def list_files(root):
    """All files under root in a stable order; dot-folders such as .git are not content."""
    found = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [d for d in subfolders if not d.startswith(".")]
        found += [os.path.join(folder, name) for name in names]
    return sorted(found)


def next_free_index(paths):
    """An asset number above every number already used, so added files never overwrite."""
    numbers = [int(m.group(1)) for m in (re.search(r"-(\d+)\.", os.path.basename(p)) for p in paths) if m]
    return max(numbers, default=-1) + 1


def mutate(dir, percent, seed=1):
    """Applies a typical content update in place.

    Edits `percent` % of the files (16 random bytes each, size unchanged), deletes
    percent/4 % and adds percent/2 % new files of the tree's current average size.
    """
    rng = random.Random(seed)
    paths = list_files(dir)
    if not paths:
        raise ValueError(f"nothing to mutate in {dir}")
    first_new_index = next_free_index(paths)
    mean_bytes = sum(os.path.getsize(p) for p in paths) / len(paths)
    rng.shuffle(paths)
    edit_count = int(len(paths) * percent / 100)
    edited = paths[:edit_count]
    deleted = paths[edit_count:edit_count + edit_count // 4]
    for path in edited:
        with open(path, "r+b") as f:
            f.seek(rng.randint(0, max(0, os.path.getsize(path) - 16)))
            f.write(rng.randbytes(16))
    for path in deleted:
        os.remove(path)
    scale = mean_bytes / (MEAN_KIB * 1024)
    for offset in range(edit_count // 2):
        write_asset(rng, dir, first_new_index + offset, scale)


def write_big_file(dir, size, seed=1):
    """DIR/big.bin: `size` incompressible bytes, streamed so memory stays at one chunk."""
    rng = random.Random(seed)
    os.makedirs(dir, exist_ok=True)
    with open(os.path.join(dir, "big.bin"), "wb") as f:
        remaining = size
        while remaining:
            chunk = min(CHUNK_BYTES, remaining)
            f.write(rng.randbytes(chunk))
            remaining -= chunk


def write_sparse_file(dir, size):
    """DIR/sparse.bin: `size` bytes of zeros that take no disk space (one hole)."""
    os.makedirs(dir, exist_ok=True)
    with open(os.path.join(dir, "sparse.bin"), "wb") as f:
        f.truncate(size)


def parse_size(text):
    """'4G' -> 4 GiB in bytes; accepts K, M, G, T with optional 'iB' and plain byte counts."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?\s*", text, re.IGNORECASE)
    if not match:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (try 4G, 256M, 1024)")
    power = " KMGT".index(match.group(2).upper() or " ")
    return int(float(match.group(1)) * 1024 ** power)


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="make-corpus",
        description="Generate a deterministic asset tree for Zinc benchmarks.",
    )
    parser.add_argument("dir", help="where to write (created if missing)")
    parser.add_argument("--files", type=int, default=2000, help="number of files (default 2000)")
    parser.add_argument("--mb", type=float, default=200.0, help="approximate total MiB (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--mutate", type=float, metavar="PERCENT",
                      help="edit PERCENT %% of the files in DIR, delete PERCENT/4 %%, add PERCENT/2 %%")
    mode.add_argument("--big-file", type=parse_size, metavar="SIZE",
                      help="write DIR/big.bin with SIZE incompressible bytes")
    mode.add_argument("--sparse-file", type=parse_size, metavar="SIZE",
                      help="write DIR/sparse.bin, a sparse file of SIZE zero bytes")
    args = parser.parse_args(argv)
    if args.files < 1 or args.mb <= 0:
        parser.error("--files and --mb must be positive")
    if args.mutate is not None and not 0 <= args.mutate <= 100:
        parser.error("--mutate takes a percentage between 0 and 100")
    return args


def main(argv=None):
    args = parse_args(argv)
    if args.mutate is not None:
        try:
            mutate(args.dir, args.mutate, args.seed)
        except ValueError as error:
            return f"make-corpus: {error}"
    elif args.big_file is not None:
        write_big_file(args.dir, args.big_file, args.seed)
    elif args.sparse_file is not None:
        write_sparse_file(args.dir, args.sparse_file)
    else:
        generate(args.dir, args.files, args.mb, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
