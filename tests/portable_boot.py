"""A worker boot for Beam's Python worker pool, doing what the SDK container's boot does.

``worker_pool_main --container_executable THIS`` runs it once per SDK worker with the
worker's id and the runner's endpoints. Like the container's boot it asks the provision
service for the job's dependencies, fetches them from the artifact service, installs the
staged wheels (``--extra_package``) into a folder of its own and only then starts the
SDK harness: so the worker runs the package the job shipped, not one installed on the
machine. Used by tests/test_pipeline_portable.py; the interpreter it runs under must not
see the project itself (the test checks that it cannot import it).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile


def _endpoint(url: str) -> str:
    return url.split("://", 1)[-1]


def fetch_artifacts(worker_id: str, provision: str, artifact: str, dest: str) -> list[str]:
    """The job's staged files, written into ``dest``; their paths."""
    import grpc
    from apache_beam.portability import common_urns
    from apache_beam.portability.api import (
        beam_artifact_api_pb2,
        beam_artifact_api_pb2_grpc,
        beam_provision_api_pb2,
        beam_provision_api_pb2_grpc,
        beam_runner_api_pb2,
    )

    meta = [("worker_id", worker_id)]
    with grpc.insecure_channel(_endpoint(provision)) as ch:
        info = beam_provision_api_pb2_grpc.ProvisionServiceStub(ch).GetProvisionInfo(
            beam_provision_api_pb2.GetProvisionInfoRequest(), metadata=meta, timeout=60).info
    paths = []
    with grpc.insecure_channel(_endpoint(artifact)) as ch:
        stub = beam_artifact_api_pb2_grpc.ArtifactRetrievalServiceStub(ch)
        for i, dep in enumerate(info.dependencies):
            name = f"artifact-{i}"
            if dep.role_urn == common_urns.artifact_roles.STAGING_TO.urn:
                payload = beam_runner_api_pb2.ArtifactStagingToRolePayload.FromString(dep.role_payload)
                name = os.path.basename(payload.staged_name)
            path = os.path.join(dest, name)
            with open(path, "wb") as out:
                for chunk in stub.GetArtifact(beam_artifact_api_pb2.GetArtifactRequest(artifact=dep),
                                              metadata=meta, timeout=60):
                    out.write(chunk.data)
            paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    for name in ("id", "logging_endpoint", "artifact_endpoint", "provision_endpoint", "control_endpoint"):
        ap.add_argument(f"--{name}", required=True)
    args, _ = ap.parse_known_args(argv)
    work = tempfile.mkdtemp(prefix=f"beam-worker-{args.id}-")
    files = fetch_artifacts(args.id, args.provision_endpoint, args.artifact_endpoint, work)
    wheels = [f for f in files if f.endswith(".whl")]
    target = os.path.join(work, "site")
    if wheels:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                        "--disable-pip-version-check", "--target", target, *wheels], check=True)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (target, env.get("PYTHONPATH", "")) if p)
    harness = ("from apache_beam.runners.worker.sdk_worker import SdkHarness; "
               f"SdkHarness({args.control_endpoint!r}, worker_id={args.id!r}).run()")
    os.execve(sys.executable, [sys.executable, "-c", harness], env)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
