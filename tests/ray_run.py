"""A Ray-distributed index run in its own process, for tests: the test bounds it with a
timeout and kills its whole session, so a Ray that hangs while starting can never hang the
suite or leave raylet/GCS processes behind.

    python -m tests.ray_run ROOT DB TEMP_DIR GROUP_BYTES
prints the run report (JSON) on stdout; a Ray that cannot start exits 3 with its reason.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import ray

from codekith.distributed import Distribution, WorkerError, start_ray
from codekith.project import Project

OBJECT_STORE_BYTES = 100 * 1024 * 1024  # Ray's minimum is 75 MiB; a small /dev/shm suffices


def main(root: str, db: str, temp_dir: str, group_bytes: str) -> int:
    try:
        start_ray(
            ray,
            "local",
            num_cpus=2,
            object_store_memory=OBJECT_STORE_BYTES,
            _temp_dir=temp_dir,
        )
    except WorkerError as exc:
        print(exc, file=sys.stderr)
        return 3
    try:
        project = Project(Path(root), db=db)
        distribution = Distribution("ray", workers=2, group_bytes=int(group_bytes))
        report = project.indexer.run(distribution=distribution, refine=False)
    finally:
        ray.shutdown()
    print(json.dumps({"distributed": report.distributed, "embedded": report.embedded}))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
