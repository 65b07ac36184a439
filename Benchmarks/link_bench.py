"""What the link benchmarks share (link-update, mirror-failover): the zinc binary, the
corpus and catalog they sync from, the servers they start, and checks of a synced tree.
"""

import gzip
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time

BENCHMARKS = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.dirname(BENCHMARKS)
CATALOG_ID = "com.example.link"
BUNDLE = "Corpus"


def run(*args, **kwargs):
    return subprocess.run(args, check=True, stdout=subprocess.PIPE, text=True, **kwargs).stdout


def zinc_binary():
    """ZINC_BIN, or a release build made for the benchmarks."""
    zinc = os.environ.get("ZINC_BIN")
    if not zinc:
        subprocess.run(["swift", "build", "-c", "release", "--product", "zinc", "--scratch-path", ".build-client"],
                       cwd=ROOT, check=True, stdout=sys.stderr)
        zinc = os.path.join(ROOT, ".build-client/release/zinc")
    return os.path.realpath(zinc)


class Background:
    """A server started for the benchmark, stopped with it; `line` is its first output
    line starting with `prefix`."""

    def __init__(self, args, prefix, log):
        self.log = open(log, "w+")
        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            self.log.seek(0)
            for line in self.log:
                if line.startswith(prefix):
                    self.line = line.strip()
                    return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.log.seek(0)
        sys.exit(f"{os.path.basename(sys.argv[0])}: {args[0]} did not start:\n{self.log.read()}")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=10)


def link_simulator(upstream, rtt_ms, mbit, port=0, log="link.log"):
    """Benchmarks/link-simulator in front of `upstream` (HOST:PORT); its port is `.port`."""
    link = Background([sys.executable, os.path.join(BENCHMARKS, "link-simulator"), "--upstream", upstream,
                       "--port", str(port), "--rtt-ms", f"{rtt_ms:g}", "--mbit", f"{mbit:g}"], "Listening on ", log)
    link.port = int(link.line.rsplit(":", 1)[1])
    return link


def make_catalog(zinc, files, mb, changes, seed=1, mutation_seeds=None):
    """Version 1 from a generated corpus (in src-v1, made with `seed`), then one version
    per change in percent of files mutated from it (in src-<change>pct, with the seed
    `mutation_seeds` gives at the same position, 2 for all by default); returns
    {change: version}."""
    corpus = [sys.executable, os.path.join(BENCHMARKS, "make-corpus")]
    run(*corpus, "src-v1", "--files", str(files), "--mb", str(mb), "--seed", str(seed))
    run(zinc, "create_catalog", "--id", CATALOG_ID, "--dest", "cat")
    run(zinc, "update_bundle", "--catalog", "cat", "--name", BUNDLE, "--source", "src-v1", "--quiet")
    run(zinc, "update_distro", "--catalog", "cat", "--id", BUNDLE, "--name", "master", "--version", "1")
    version_of = {}
    for i, change in enumerate(changes):
        source = f"src-{change:g}pct"
        shutil.copytree("src-v1", source)
        run(*corpus, source, "--mutate", f"{change:g}", "--seed", str(mutation_seeds[i] if mutation_seeds else 2))
        run(zinc, "update_bundle", "--catalog", "cat", "--name", BUNDLE, "--source", source, "--quiet")
        version_of[change] = i + 2
    return version_of


def manifest_objects(catalog, version):
    """Each object of a version, with the size a client fetches."""
    with gzip.open(f"{catalog}/manifests/{BUNDLE}-{version}.json.gz") as f:
        files = json.load(f)["files"]
    # Each object is stored in one format; where another writer recorded two, the smaller is fetched.
    return {entry["sha"]: min(f["size"] for f in entry["formats"].values()) for entry in files.values()}


def tree_digest(folder):
    """Each file's relative path and SHA-1, for checking a sync against its source."""
    out = {}
    for dirpath, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(dirpath, name)
            digest = hashlib.sha1()
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    digest.update(block)
            out[os.path.relpath(path, folder)] = digest.hexdigest()
    return out


def copy_repo(zinc, source, repo):
    """A copy of the client repo `source` at `repo`, as the device that synced it has it,
    for a timed sync to start from. Three things a device's repo does not go through
    would otherwise be timed with it:
    - copied files get new inodes and change times, which the repo's stamps rightly take
      for files changed behind its back (the sync would hash every checked-out object):
      `zinc repo verify` hashes them once here and stamps them again;
    - the copy's bytes would still be written back to disk during the sync: `sync` first;
    - removing the previous copy just before would make each folder the sync creates
      cost more (ext4 steps over inodes freed in the last seconds): it is set aside
      instead, for the work folder's removal at the end."""
    if os.path.exists(repo):
        os.rename(repo, f"{repo}.done-{time.monotonic_ns()}")
    subprocess.run(["cp", "-a", source, repo], check=True)
    run(zinc, "repo", "verify", "--repo", repo)
    os.sync()


def timed_sync(zinc, repo, *options):
    """Syncs `repo`; returns the seconds the command took and its JSON report."""
    start = time.monotonic()
    out = run(zinc, "sync", "--repo", repo, "--json", "--quiet", *options)
    return time.monotonic() - start, json.loads(out)


def check_tree(repo, version, source):
    folder = f"{repo}/bundles/{CATALOG_ID}.{BUNDLE}-{version}"
    if tree_digest(folder) != tree_digest(source):
        sys.exit(f"{os.path.basename(sys.argv[0])}: {folder} differs from {source}")
