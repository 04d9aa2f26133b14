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
    torch.onnx.export(model, (x,), str(out), input_names=["image"], output_names=["peak", "corners"], opset_version=OPSET, dynamo=False)


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
        model, (x,), str(out), input_names=["crops"], output_names=["offsets"],
        dynamic_axes={"crops": {0: "n"}, "offsets": {0: "n"}}, opset_version=OPSET, dynamo=False,
    )


def export_verifier(ckpt: Path, out: Path) -> None:
    model = VerifierExport(_load(Verifier(), ckpt)).eval()  # type: ignore[arg-type]
    x = torch.zeros(2, 3, REFINE_H, REFINE_W)
    torch.onnx.export(
        model, (x,), str(out), input_names=["crops"], output_names=["cover"],
        dynamic_axes={"crops": {0: "n"}, "cover": {0: "n"}}, opset_version=OPSET, dynamo=False,
    )


def embed_crops(identifier: Path, crops: np.ndarray, batch: int = 256) -> np.ndarray:
    sess = ort.InferenceSession(str(identifier), providers=["CPUExecutionProvider"])
    out = []
    for s in range(0, len(crops), batch):
        x = np.ascontiguousarray(crops[s : s + batch].transpose(0, 3, 1, 2), dtype=np.float32)
        out.append(sess.run(None, {"crops": x})[0])
    return np.concatenate(out)


def export_all(
    models_dir: Path, data_dir: Path, deck: str = "swiss-xvii", per_label: int = 60,
    detector_run: str = "detector", identifier_run: str = "identifier",
    detector_checkpoint: str = "best", identifier_checkpoint: str = "best",
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
    """Rewire an identifier exported before session 16 so its third output is the map ``IdentifierExport`` gives now.

    The shipped identifier's training checkpoint is not kept, only its ONNX file; the
    weights are unchanged by this edit (the embedding and flip outputs are bit-identical),
    only the tensor flattened into "features" moves: to the map after the identifier's
    fourth block (48x24x16), its 2x2 blocks of positions stacked into channels (192x12x8).
    Before session 14 it was the trunk's last map (48x6x4), in sessions 14-15 the map after
    the sixth block (96x12x8). Rewiring a file twice gives the same file.
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


def detector_any_size(src: Path, out: Path) -> None:
    """Rewrite a detector exported at one square size so it reads frames of any size (multiples of 32).

    The network is fully convolutional, but its export fixed two things to the square it was
    traced at: the sizes its top-down path upsamples to, and the grid of cell centres added
    to the regressed corners. At the mounting the hardware guide prescribes, a card is a
    tenth of the frame's short side; letterboxed into 320 px it is 22 px long, under what the
    detector was trained on. Read at an input shaped like the frame and scaled so that cards
    come out at the size it reads best, it needs neither (``Recognizer.detector_input``).
    The weights are unchanged: at the traced size the outputs are bit-identical. Rewriting a
    file twice gives the same file.
    """
    import onnx
    from onnx import TensorProto, helper

    model = onnx.load(str(src))
    graph = model.graph
    (inp,) = graph.input
    dims = inp.type.tensor_type.shape.dim
    for i, name in ((2, "height"), (3, "width")):
        dims[i].ClearField("dim_value")
        dims[i].dim_param = name
    for o in graph.output:
        for i, name in ((2, "grid_h"), (3, "grid_w")):
            d = o.type.tensor_type.shape.dim[i]
            d.ClearField("dim_value")
            d.dim_param = name
    inits = {t.name for t in graph.initializer}
    consts = {n.output[0] for n in graph.node if n.op_type == "Constant"}
    # Upsampling by two (the top-down path joins strides 32 -> 16 -> 8): scales, not sizes.
    scales = "upsample_scales"
    if scales not in inits:
        graph.initializer.append(helper.make_tensor(scales, TensorProto.FLOAT, [4], [1.0, 1.0, 2.0, 2.0]))
    for n in graph.node:
        if n.op_type == "Resize" and len(n.input) == 4 and n.input[3]:
            del n.input[3]
            n.input[2] = scales
    # The cell centres, computed from the corners' own grid instead of a constant.
    (add,) = [n for n in graph.node if n.op_type == "Add" and "corners" in n.output]
    const = [x for x in add.input if x in inits or x in consts]
    if const:
        from vision.recognizer.geometry import DETECTOR_STRIDE

        reg = next(x for x in add.input if x not in const)
        step, half = float(DETECTOR_STRIDE), DETECTOR_STRIDE / 2.0
        nodes = [
            helper.make_node("Shape", [reg], ["grid_shape"]),
            helper.make_node("Constant", [], ["grid_i2"], value=helper.make_tensor("i2", TensorProto.INT64, [], [2])),
            helper.make_node("Constant", [], ["grid_i3"], value=helper.make_tensor("i3", TensorProto.INT64, [], [3])),
            helper.make_node("Constant", [], ["grid_zero"], value=helper.make_tensor("z", TensorProto.INT64, [], [0])),
            helper.make_node("Constant", [], ["grid_one"], value=helper.make_tensor("o", TensorProto.INT64, [], [1])),
            helper.make_node("Gather", ["grid_shape", "grid_i2"], ["grid_gh"], axis=0),
            helper.make_node("Gather", ["grid_shape", "grid_i3"], ["grid_gw"], axis=0),
            helper.make_node("Range", ["grid_zero", "grid_gh", "grid_one"], ["grid_ry"]),
            helper.make_node("Range", ["grid_zero", "grid_gw", "grid_one"], ["grid_rx"]),
            helper.make_node("Cast", ["grid_ry"], ["grid_fy"], to=TensorProto.FLOAT),
            helper.make_node("Cast", ["grid_rx"], ["grid_fx"], to=TensorProto.FLOAT),
            helper.make_node("Constant", [], ["grid_step"], value=helper.make_tensor("s", TensorProto.FLOAT, [], [step])),
            helper.make_node("Constant", [], ["grid_half"], value=helper.make_tensor("h", TensorProto.FLOAT, [], [half])),
            helper.make_node("Mul", ["grid_fy", "grid_step"], ["grid_my"]),
            helper.make_node("Add", ["grid_my", "grid_half"], ["grid_cy"]),
            helper.make_node("Mul", ["grid_fx", "grid_step"], ["grid_mx"]),
            helper.make_node("Add", ["grid_mx", "grid_half"], ["grid_cx"]),
            # (gh, 1) and (1, gw) broadcast to (gh, gw) when added to zeros of that shape.
            helper.make_node("Constant", [], ["grid_ax1"], value=helper.make_tensor("a1", TensorProto.INT64, [1], [1])),
            helper.make_node("Constant", [], ["grid_ax0"], value=helper.make_tensor("a0", TensorProto.INT64, [1], [0])),
            helper.make_node("Unsqueeze", ["grid_cy", "grid_ax1"], ["grid_col"]),
            helper.make_node("Unsqueeze", ["grid_cx", "grid_ax0"], ["grid_row"]),
            helper.make_node("Mul", ["grid_col", "grid_zero_f"], ["grid_zcol"]),
            helper.make_node("Mul", ["grid_row", "grid_zero_f"], ["grid_zrow"]),
            helper.make_node("Add", ["grid_row", "grid_zcol"], ["grid_x"]),
            helper.make_node("Add", ["grid_col", "grid_zrow"], ["grid_y"]),
            helper.make_node("Constant", [], ["grid_ax01"], value=helper.make_tensor("a01", TensorProto.INT64, [2], [0, 1])),
            helper.make_node("Unsqueeze", ["grid_x", "grid_ax01"], ["grid_x4"]),
            helper.make_node("Unsqueeze", ["grid_y", "grid_ax01"], ["grid_y4"]),
            helper.make_node("Concat", ["grid_x4", "grid_y4"] * 4, ["grid_centre"], axis=1),
        ]
        zero_f = helper.make_node("Constant", [], ["grid_zero_f"], value=helper.make_tensor("zf", TensorProto.FLOAT, [], [0.0]))
        at = list(graph.node).index(add)
        for k, node in enumerate([zero_f, *nodes]):
            graph.node.insert(at + k, node)
        add.input[:] = [reg, "grid_centre"]
        for name in const:
            if name in inits:
                graph.initializer.remove(next(t for t in graph.initializer if t.name == name))
            else:
                graph.node.remove(next(n for n in graph.node if n.op_type == "Constant" and n.output[0] == name))
    del graph.value_info[:]
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
                raise ValueError(f"{src}: convolution {node.name} has weights {w.shape}, the Detector {tuple(conv.weight.shape)}")
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
