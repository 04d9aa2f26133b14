"""Editing an exported detector file with onnx alone (no torch): a file that reads any input size."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx


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
            helper.make_node(
                "Constant", [], ["grid_step"], value=helper.make_tensor("s", TensorProto.FLOAT, [], [step])
            ),
            helper.make_node(
                "Constant", [], ["grid_half"], value=helper.make_tensor("h", TensorProto.FLOAT, [], [half])
            ),
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
            helper.make_node(
                "Constant", [], ["grid_ax01"], value=helper.make_tensor("a01", TensorProto.INT64, [2], [0, 1])
            ),
            helper.make_node("Unsqueeze", ["grid_x", "grid_ax01"], ["grid_x4"]),
            helper.make_node("Unsqueeze", ["grid_y", "grid_ax01"], ["grid_y4"]),
            helper.make_node("Concat", ["grid_x4", "grid_y4"] * 4, ["grid_centre"], axis=1),
        ]
        zero_f = helper.make_node(
            "Constant", [], ["grid_zero_f"], value=helper.make_tensor("zf", TensorProto.FLOAT, [], [0.0])
        )
        at = list(graph.node).index(add)
        for k, node in enumerate([zero_f, *nodes]):
            graph.node.insert(at + k, node)
        add.input[:] = [reg, "grid_centre"]
        for name in const:
            if name in inits:
                graph.initializer.remove(next(t for t in graph.initializer if t.name == name))
            else:
                graph.node.remove(next(n for n in graph.node if n.op_type == "Constant" and n.output[0] == name))
    fold_input_scale(model)
    del graph.value_info[:]
    onnx.checker.check_model(model)
    onnx.save(model, str(out))


def fold_input_scale(model: onnx.ModelProto) -> None:
    """Fold the export's division of the input by 255 into the first convolution's weights.

    The division runs over every input pixel of a frame-shaped input (6 % of the node time
    in onnxruntime's profile of a 896 x 672 input); the stem convolution is linear in its
    input and pads with zeros, so its weights divided by 255 give the same outputs up to
    float rounding, which can still tip a threshold now and then (models/README.md). A file
    without the division is left as it is.
    """
    from onnx import numpy_helper

    graph = model.graph
    (inp,) = graph.input
    divs = [n for n in graph.node if n.op_type == "Div" and n.input[0] == inp.name]
    if not divs:
        return
    (div,) = divs
    consts = {n.output[0]: n for n in graph.node if n.op_type == "Constant"}
    inits = {t.name: t for t in graph.initializer}
    divisor = div.input[1]
    value = (
        numpy_helper.to_array(consts[divisor].attribute[0].t)
        if divisor in consts
        else numpy_helper.to_array(inits[divisor])
    )
    users = [n for n in graph.node if div.output[0] in n.input]
    if value.size != 1 or not users or any(n.op_type != "Conv" for n in users):
        return
    for conv in users:
        weight = inits[conv.input[1]]
        array = numpy_helper.to_array(weight)
        weight.CopyFrom(numpy_helper.from_array((array / float(value.reshape(()))).astype(array.dtype), weight.name))
        conv.input[0] = inp.name
    graph.node.remove(div)
    if divisor in consts and not any(divisor in n.input for n in graph.node):
        graph.node.remove(consts[divisor])
