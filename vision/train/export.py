"""Export trained checkpoints to self-contained ONNX files and build the built-in deck's prototypes."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import onnxruntime as ort
import torch
from torch import nn

from vision.recognizer.geometry import CROP_H, CROP_W, DETECTOR_SIZE
from vision.recognizer.outline import REFINE_H, REFINE_W
from vision.recognizer.prototypes import build_prototypes
from vision.recognizer.runtime import DETECTOR_FILE, IDENTIFIER_FILE, PROTOTYPES_FILE
from vision.train.common import RUNS_DIR
from vision.train.data import load_chunks
from vision.train.detector_file import detector_any_size  # noqa: F401  (re-exported for the CLI)
from vision.train.labels import LABELS
from vision.train.nets import (
    Detector,
    DetectorExport,
    Identifier,
    IdentifierExport,
    Refiner,
    RefinerExport,
    Verifier,
    VerifierExport,
)

OPSET = 17


def _load(model: torch.nn.Module, ckpt: Path) -> torch.nn.Module:
    state = torch.load(ckpt, map_location="cpu", weights_only=False)
    model.load_state_dict(state["model"])
    return model.eval()


def export_detector(ckpt: Path, out: Path, size: int = DETECTOR_SIZE) -> None:
    """The detector for ``size``-square inputs: the runtime letterboxes frames to the size the file declares."""
    if size % 32:
        raise ValueError(f"detector input size must be a multiple of 32, got {size}")
    model = DetectorExport(_load(Detector(), ckpt), size).eval()  # type: ignore[arg-type]
    x = torch.zeros(1, 3, size, size)
    torch.onnx.export(
        model,
        (x,),
        str(out),
        input_names=["image"],
        output_names=["peak", "corners"],
        opset_version=OPSET,
        dynamo=False,
    )


def export_identifier(ckpt: Path, out: Path) -> None:
    model = IdentifierExport(_load(Identifier(n_classes=len(LABELS)), ckpt)).eval()  # type: ignore[arg-type]
    x = torch.zeros(2, 3, CROP_H, CROP_W)
    torch.onnx.export(
        model,
        (x,),
        str(out),
        input_names=["crops"],
        output_names=["embedding", "upside_down", "features"],
        dynamic_axes={"crops": {0: "n"}, "embedding": {0: "n"}, "upside_down": {0: "n"}, "features": {0: "n"}},
        opset_version=OPSET,
        dynamo=False,
    )


def export_refiner(ckpt: Path, out: Path) -> None:
    model = RefinerExport(_load(Refiner(), ckpt), REFINE_W, REFINE_H).eval()  # type: ignore[arg-type]
    x = torch.zeros(2, 3, REFINE_H, REFINE_W)
    torch.onnx.export(
        model,
        (x,),
        str(out),
        input_names=["crops"],
        output_names=["offsets"],
        dynamic_axes={"crops": {0: "n"}, "offsets": {0: "n"}},
        opset_version=OPSET,
        dynamo=False,
    )


def export_verifier(ckpt: Path, out: Path) -> None:
    model = VerifierExport(_load(Verifier(), ckpt)).eval()  # type: ignore[arg-type]
    x = torch.zeros(2, 3, REFINE_H, REFINE_W)
    torch.onnx.export(
        model,
        (x,),
        str(out),
        input_names=["crops"],
        output_names=["cover"],
        dynamic_axes={"crops": {0: "n"}, "cover": {0: "n"}},
        opset_version=OPSET,
        dynamo=False,
    )


def embed_crops(identifier: Path, crops: np.ndarray, batch: int = 256) -> np.ndarray:
    sess = ort.InferenceSession(str(identifier), providers=["CPUExecutionProvider"])
    out = []
    for s in range(0, len(crops), batch):
        x = np.ascontiguousarray(crops[s : s + batch].transpose(0, 3, 1, 2), dtype=np.float32)
        out.append(sess.run(None, {"crops": x})[0])
    return np.concatenate(out)


def export_all(
    models_dir: Path,
    data_dir: Path,
    deck: str = "swiss-xvii",
    per_label: int = 60,
    detector_run: str = "detector",
    identifier_run: str = "identifier",
    detector_checkpoint: str = "best",
    identifier_checkpoint: str = "best",
) -> None:
    """Write the detector and identifier ONNX files and ``<deck>.prototypes.npz`` into ``models_dir``.

    A checkpoint "last" takes the end of a run's schedule instead of its best validation
    score: a fine-tuning run's first validation, still close to the weights it started
    from, can score best on the small validation set while the finished run reads more
    cards on the scenes the choice is made on (detector6).
    """
    for which in (detector_checkpoint, identifier_checkpoint):
        if which not in ("best", "last"):
            raise ValueError(f"a checkpoint is 'best' or 'last', got {which!r}")
    models_dir.mkdir(parents=True, exist_ok=True)
    export_detector(RUNS_DIR / detector_run / f"{detector_checkpoint}.pt", models_dir / DETECTOR_FILE)
    export_identifier(RUNS_DIR / identifier_run / f"{identifier_checkpoint}.pt", models_dir / IDENTIFIER_FILE)
    d = load_chunks(data_dir)
    # The deck and its procedural variants: the renderer draws "swiss-xvii" scenes with both.
    keep = np.char.startswith(d["crop_deck"], deck) & (d["crop_vis"] >= 0.9)
    crops, labels = d["crop_img"][keep], d["crop_label"][keep]
    rng = np.random.default_rng(0)
    chosen = np.concatenate([rng.permutation(np.nonzero(labels == k)[0])[:per_label] for k in range(len(LABELS))])
    crops, labels = crops[chosen], labels[chosen]
    # Both ways up: the identifier reads a card either way, so its prototype covers both.
    both = np.concatenate([crops, crops[:, ::-1, ::-1]])
    names = [LABELS[k] for k in np.concatenate([labels, labels])]
    protos = build_prototypes(embed_crops(models_dir / IDENTIFIER_FILE, both), names)
    # The verifier learnt this deck (and its variants): it may drop what it takes for no card.
    protos = dataclasses.replace(protos, verified=frozenset(protos.names))
    protos.save(models_dir / PROTOTYPES_FILE)
    (models_dir / "labels.txt").write_text("\n".join(LABELS) + "\n")
    print(f"exported to {models_dir}: {len(names)} crops -> {len(protos.names)} prototypes")


def identifier_map_output(src: Path, out: Path) -> None:
    """Rewire an identifier file whose third output is another map so it is the one ``IdentifierExport`` gives.

    The shipped identifier's training checkpoint is not kept, only its ONNX file; the
    weights are unchanged by this edit (the embedding and flip outputs are bit-identical),
    only the tensor flattened into "features" moves: to the map after the identifier's
    fourth block (48x24x16), its 2x2 blocks of positions stacked into channels (192x12x8).
    Older files give the trunk's last map (48x6x4) or the map after the sixth block
    (96x12x8); models/README.md says which identifier gave which. Rewiring a file twice
    gives the same file.
    """
    import onnx
    from onnx import helper

    from vision.enroll.detail_head import MAP_SIZE

    model = onnx.load(str(src))
    graph = model.graph
    tensor = f"/features/features.{IdentifierExport.MAP_BLOCKS - 1}/Relu_output_0"
    if not any(tensor in n.output for n in graph.node):
        raise ValueError(f"{src}: no tensor {tensor}; not an identifier exported by IdentifierExport")
    (old,) = [n for n in graph.node if "features" in n.output]
    stacked = "map_space_to_depth"
    if not any(stacked in n.output for n in graph.node):
        node = helper.make_node("SpaceToDepth", [tensor], [stacked], name=stacked, blocksize=2)
        graph.node.insert(list(graph.node).index(old), node)
    old.input[0] = stacked
    (out_info,) = [o for o in graph.output if o.name == "features"]
    dims = out_info.type.tensor_type.shape.dim
    if len(dims) == 2:
        dims[1].ClearField("dim_param")
        dims[1].dim_value = MAP_SIZE
    onnx.checker.check_model(model)
    onnx.save(model, str(out))


def detector_checkpoint_from_onnx(src: Path, out: Path) -> None:
    """A training checkpoint (``{"model": state_dict}``) of the ``Detector`` in an exported ONNX file.

    The shipped detector's training checkpoint is not kept, only its ONNX file, in which
    the export folded each batch norm into its convolution. The folded weights go into the
    convolutions in graph order and each batch norm becomes the identity plus the folded
    bias, so the checkpoint computes what the file does; train it on with its batch norms
    frozen (``vision.train.detector.train(freeze_bn=True)``), as batch statistics would
    undo the folding.
    """
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(src))
    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    (image,) = model.graph.input
    if convs and convs[0].input[0] == image.name:
        # The file's stem reads the pixels undivided (``detector_file.fold_input_scale``);
        # the Detector divides them by 255 itself.
        inits[convs[0].input[1]] = inits[convs[0].input[1]] * np.float32(255.0)
    det = Detector()
    pairs: list[tuple[nn.Conv2d, nn.BatchNorm2d | None]] = []
    mods = list(det.modules())
    for i, m in enumerate(mods):
        if isinstance(m, nn.Conv2d):
            nxt = mods[i + 1] if i + 1 < len(mods) else None
            pairs.append((m, nxt if isinstance(nxt, nn.BatchNorm2d) else None))
    # Module order is the forward order except that the heads are built after the top-down
    # path's layers but run after them too; the lateral 1x1s run after s5, as built.
    if len(pairs) != len(convs):
        raise ValueError(f"{src}: {len(convs)} convolutions, the Detector has {len(pairs)}")
    with torch.no_grad():
        for (conv, bn), node in zip(pairs, convs, strict=True):
            w = inits[node.input[1]]
            b = inits[node.input[2]] if len(node.input) > 2 else np.zeros(w.shape[0], np.float32)
            if tuple(conv.weight.shape) != w.shape:
                raise ValueError(
                    f"{src}: convolution {node.name} has weights {w.shape}, the Detector {tuple(conv.weight.shape)}"
                )
            conv.weight.copy_(torch.from_numpy(w))
            if bn is None:
                assert conv.bias is not None
                conv.bias.copy_(torch.from_numpy(b))
            else:
                bn.weight.fill_(1.0)
                bn.bias.copy_(torch.from_numpy(b))
                assert bn.running_mean is not None and bn.running_var is not None
                bn.running_mean.zero_()
                bn.running_var.fill_(1.0 - bn.eps)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": det.state_dict()}, out)
