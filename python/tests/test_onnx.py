"""remat-onnx and remat.onnx.load on torchvision models exported by
torch.onnx.export (torch 2.14), and on bad input.

Every family is exported with small inputs and weights=None: by the
TorchScript exporter at opset 14 (batch 1) and opset 18 (batch 2), and by
the dynamo exporter (batch 2; asked for opset 14 it writes opset 18).
Exports are cached per session in a pytest temporary folder.  Each graph
must carry every Conv, Gemm and MatMul of the file as a node, positive
integer durations, sizes that are positive integers (zero only for an empty
tensor), the input and logits sizes of its
batch, and load in remat's C library (remat.load_graph), or in the
`remat info` command where the library is not built.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import warnings
from pathlib import Path

import pytest

onnx = pytest.importorskip("onnx")
torch = pytest.importorskip("torch")
torchvision = pytest.importorskip("torchvision")
pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper  # noqa: E402

from remat.errors import BridgeError  # noqa: E402
import remat.onnx  # noqa: E402
from remat.onnx.cli import main as onnx_main  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CLASSES = 10


def _families():
    from torchvision import models as tv
    from torchvision.models.convnext import CNBlockConfig
    return {
        # name: (factory, input side)
        "resnet": (lambda: tv.resnet18(num_classes=CLASSES), 32),
        "densenet": (lambda: tv.DenseNet(growth_rate=8, block_config=(2, 2),
                                         num_init_features=16,
                                         num_classes=CLASSES), 32),
        "mobilenet_v2": (lambda: tv.mobilenet_v2(width_mult=0.35,
                                                 num_classes=CLASSES), 32),
        "mobilenet_v3": (lambda: tv.mobilenet_v3_small(num_classes=CLASSES),
                         32),
        "efficientnet": (lambda: tv.efficientnet_b0(num_classes=CLASSES), 32),
        "regnet": (lambda: tv.regnet_x_400mf(num_classes=CLASSES), 32),
        "convnext": (lambda: tv.ConvNeXt(
            [CNBlockConfig(16, 32, 1), CNBlockConfig(32, None, 1)],
            num_classes=CLASSES), 32),
        "vit": (lambda: tv.VisionTransformer(
            image_size=32, patch_size=8, num_layers=2, num_heads=2,
            hidden_dim=32, mlp_dim=64, num_classes=CLASSES), 32),
        "swin": (lambda: tv.SwinTransformer(
            patch_size=[4, 4], embed_dim=16, depths=[2, 2], num_heads=[2, 2],
            window_size=[4, 4], num_classes=CLASSES), 32),
        "swin_v2": (lambda: tv.swin_transformer.SwinTransformer(
            patch_size=[4, 4], embed_dim=16, depths=[2, 2], num_heads=[2, 2],
            window_size=[4, 4], num_classes=CLASSES,
            block=tv.swin_transformer.SwinTransformerBlockV2,
            downsample_layer=tv.swin_transformer.PatchMergingV2), 32),
        "squeezenet": (lambda: tv.squeezenet1_1(num_classes=CLASSES), 64),
        "shufflenet": (lambda: tv.shufflenet_v2_x0_5(num_classes=CLASSES),
                       32),
        "mnasnet": (lambda: tv.mnasnet0_5(num_classes=CLASSES), 32),
        "googlenet": (lambda: tv.GoogLeNet(num_classes=CLASSES,
                                           aux_logits=False,
                                           init_weights=False), 32),
    }


FAMILIES = sorted(_families())
# (exporter, opset, batch) per family
CASES = [("torchscript", 14, 1), ("torchscript", 18, 2), ("dynamo", 18, 2)]
# the three families torch 1.13's reader failed on, every combination
HARD = ["vit", "swin", "shufflenet"]
HARD_CASES = [("torchscript", 14, 2), ("torchscript", 18, 1),
              ("dynamo", 14, 1)]


class Exports:
    """torch.onnx.export results cached in one folder per session."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.families = _families()
        self.models: dict[str, torch.nn.Module] = {}

    def model(self, family: str):
        if family not in self.models:
            torch.manual_seed(0)
            self.models[family] = self.families[family][0]().eval()
        return self.models[family], self.families[family][1]

    def get(self, family: str, exporter: str, opset: int, batch: int,
            dynamic: bool = False) -> Path:
        tag = "dyn" if dynamic else f"b{batch}"
        path = self.folder / f"{family}_{exporter}_{opset}_{tag}.onnx"
        if path.exists():
            return path
        model, side = self.model(family)
        x = torch.randn(batch, 3, side, side)
        kw: dict = {"input_names": ["x"], "opset_version": opset,
                    "dynamo": exporter == "dynamo"}
        if dynamic and exporter == "dynamo":
            kw["dynamic_shapes"] = ({0: torch.export.Dim("batch")},)
        elif dynamic:
            kw["dynamic_axes"] = {"x": {0: "batch"}}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            logging.disable(logging.WARNING)
            torch.onnx.export(model, (x,), str(path), **kw)
        return path


@pytest.fixture(scope="session")
def exports(tmp_path_factory) -> Exports:
    torch.set_num_threads(2)
    return Exports(tmp_path_factory.mktemp("onnx"))


@pytest.fixture(scope="session")
def c_check():
    """A function that has remat's C reader load a graph dict and returns
    its (durations, sizes)."""
    try:
        import remat
        remat.load_graph({"format": "remat", "nodes": [
            {"id": 0, "duration": 1, "memory": 1}], "edges": []})

        def check(g: dict) -> tuple[list[int], list[int]]:
            c = remat.load_graph(g)
            return list(c.durations), list(c.sizes)
        return check
    except Exception:   # no package __init__ or no library built: the CLI
        pass
    binary = ROOT / "build" / "remat"
    if not binary.exists():
        subprocess.run(["make", "-j2", "build/remat"], cwd=ROOT,
                       capture_output=True)
    if not binary.exists():
        pytest.skip("neither remat.load_graph nor build/remat available")

    def check_cli(g: dict) -> tuple[list[int], list[int]]:
        path = ROOT / "build" / f"onnx_test_{os.getpid()}.json"
        path.write_text(json.dumps(g))
        try:
            p = subprocess.run([str(binary), "info", str(path)],
                               capture_output=True, text=True)
        finally:
            path.unlink()
        assert p.returncode == 0, p.stderr
        return ([n["duration"] for n in g["nodes"]],
                [n["memory"] for n in g["nodes"]])
    return check_cli


def _ops(path: Path) -> dict[str, int]:
    m = onnx.load(str(path), load_external_data=False)
    out: dict[str, int] = {}
    for n in m.graph.node:
        out[n.op_type] = out.get(n.op_type, 0) + 1
    return out


def check_graph(g: dict, path: Path, batch: int, side: int, c_check) -> None:
    """What every graph of a classification model must satisfy."""
    nodes = g["nodes"]
    ops = _ops(path)
    assert 0 < len(nodes) <= sum(ops.values())
    for op in ("Conv", "Gemm", "MatMul"):
        assert sum(n["op"] == f"onnx.{op}" for n in nodes) == \
            ops.get(op, 0), op
    for n in nodes:
        for key in ("memory", "duration"):
            v = n[key]
            assert type(v) is int and v >= 0, (n["label"], key, v)
        assert n["duration"] > 0
        # zero bytes only for an empty tensor (Swin's shift masks on small
        # feature maps slice nothing)
        assert n["memory"] > 0 or any(0 in s for s in n["shape"]), n
    assert [n["id"] for n in nodes] == list(range(len(nodes)))
    assert g["order"] == list(range(len(nodes)))
    assert all(0 <= u < v < len(nodes) for u, v in g["edges"])
    assert g["input_bytes"] == batch * 3 * side * side * 4
    assert nodes[-1]["memory"] == batch * CLASSES * 4   # the logits
    assert g["param_bytes"] > 0
    durations, sizes = c_check(g)
    assert sizes == [n["memory"] for n in nodes]
    assert durations == [n["duration"] for n in nodes]


@pytest.mark.parametrize("family", FAMILIES)
def test_family(family, exports, c_check):
    graphs = {}
    for exporter, opset, batch in CASES + (
            HARD_CASES if family in HARD else []):
        path = exports.get(family, exporter, opset, batch)
        g = remat.onnx.load(path)
        side = exports.model(family)[1]
        check_graph(g, path, batch, side, c_check)
        assert g["opset"] == max(opset, 18 if exporter == "dynamo" else 0)
        graphs[exporter, opset, batch] = g
    # the same model at batch 1 and 2: every convolution twice as large
    conv = {k: [n["memory"] for n in g["nodes"] if n["op"] == "onnx.Conv"]
            for k, g in graphs.items()}
    b1, b2 = conv["torchscript", 14, 1], conv["torchscript", 18, 2]
    assert [2 * m for m in b1] == b2
    # both exporters: the same convolutions
    assert conv["dynamo", 18, 2] == b2


@pytest.mark.parametrize("family,exporter", [
    ("resnet", "torchscript"), ("vit", "torchscript"), ("swin", "torchscript"),
    ("shufflenet", "torchscript"), ("vit", "dynamo")])
def test_dynamic_batch(family, exporter, exports, c_check, capsys):
    path = exports.get(family, exporter, 18, 2, dynamic=True)
    side = exports.model(family)[1]
    assert onnx_main([str(path), "-o", os.devnull, "-q"]) == 2
    err = capsys.readouterr().err.strip()
    dim = repr(_input_dim(path))
    assert err == (f"remat-onnx: {path}: input 'x' has a symbolic "
                   f"dimension {dim}: give --batch N")
    g3 = remat.onnx.load(path, batch=3)
    check_graph(g3, path, 3, side, c_check)
    assert g3["batch"] == 3
    static = remat.onnx.load(exports.get(family, exporter, 18, 2))
    g2 = remat.onnx.load(path, batch=2)
    assert sorted(n["memory"] for n in g2["nodes"] if n["op"] == "onnx.Conv") \
        == sorted(n["memory"] for n in static["nodes"]
                  if n["op"] == "onnx.Conv")


def _input_dim(path: Path) -> str:
    m = onnx.load(str(path), load_external_data=False)
    return m.graph.input[0].type.tensor_type.shape.dim[0].dim_param


# ------------------------------------------------------------- bad inputs

def _cli(capsys, *argv: str) -> tuple[int, str]:
    rc = onnx_main([str(a) for a in argv])
    return rc, capsys.readouterr().err.strip()


def _tiny(tmp_path: Path, nodes, inputs, outputs, value_info=(),
          name: str = "m.onnx", opset: int = 18,
          extra_opsets=()) -> Path:
    g = helper.make_graph(nodes, "g", inputs, outputs,
                          value_info=list(value_info))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)]
                          + [helper.make_opsetid(d, 1) for d in extra_opsets])
    path = tmp_path / name
    onnx.save(m, str(path))
    return path


def _vi(name: str, shape, elem=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def test_not_models(tmp_path, exports, capsys, monkeypatch):
    good = exports.get("resnet", "torchscript", 14, 1).read_bytes()
    (tmp_path / "truncated.onnx").write_bytes(good[:3000])
    (tmp_path / "text.onnx").write_text("not a model\n")
    (tmp_path / "empty.onnx").write_bytes(b"")
    monkeypatch.chdir(tmp_path)
    for f, why in [("truncated.onnx", "the protobuf does not parse"),
                   ("text.onnx", "the protobuf does not parse"),
                   ("empty.onnx", "no graph nodes")]:
        assert _cli(capsys, f, "-q") == (
            2, f"remat-onnx: {f}: not an ONNX model ({why})")
    assert _cli(capsys, "missing.onnx") == (
        2, "remat-onnx: missing.onnx: cannot read: No such file or directory")
    with pytest.raises(BridgeError, match="^missing.onnx: cannot read"):
        remat.onnx.load("missing.onnx")


def test_options(tmp_path, exports, capsys):
    static = exports.get("resnet", "torchscript", 14, 1)
    assert _cli(capsys, static, "--batch", "0") == (
        2, "remat-onnx: --batch 0: must be positive")
    assert _cli(capsys, static, "--dim", "h") == (
        2, "remat-onnx: --dim 'h': expected NAME=N with N a positive "
           "integer, e.g. --dim height=224")
    assert _cli(capsys, static, "--batch", "3", "-q") == (
        2, f"remat-onnx: {static}: --batch 3: the model's inputs have a "
           "static batch (1); export it with a dynamic batch axis, or at "
           "the batch you want")
    out = tmp_path / "g.json"
    assert _cli(capsys, static, "--batch", "1", "-o", out, "-q") == (0, "")
    assert json.loads(out.read_text())["input_bytes"] == 3 * 32 * 32 * 4


def test_symbolic_dims(tmp_path, capsys):
    path = _tiny(tmp_path, [helper.make_node("Relu", ["x"], ["y"], "relu")],
                 [_vi("x", ["n", 3, "h"])], [_vi("y", ["n", 3, "h"])])
    assert _cli(capsys, path, "--batch", "2") == (
        2, f"remat-onnx: {path}: input 'x' has a symbolic dimension 'h' "
           "(axis 2): give --dim h=N")
    g = remat.onnx.load(path, batch=2, dims={"h": 5})
    assert g["nodes"][0]["memory"] == 2 * 3 * 5 * 4
    g = remat.onnx.load(path, dims={"n": 4, "h": 5})
    assert g["nodes"][0]["memory"] == 4 * 3 * 5 * 4


def test_unknown_size_advice(tmp_path, capsys):
    """A size nothing can infer or measure: the message names the node, and
    its advice (store the shape) works."""
    nodes = [helper.make_node("Frob", ["x"], ["y"], "frob",
                              domain="my.ops"),
             helper.make_node("Relu", ["y"], ["z"], "relu")]
    args = ([_vi("x", [2, 3])], [_vi("z", [2, 3])])
    path = _tiny(tmp_path, nodes, *args, extra_opsets=["my.ops"])
    rc, err = _cli(capsys, path)
    assert rc == 2
    assert err.startswith(
        f"remat-onnx: {path}: node 'frob' (Frob): output 'y' has no "
        "inferred shape: onnxruntime cannot run the model to measure it (")
    assert err.endswith(
        "); store the shapes in the model's value_info (torch.onnx.export"
        "(..., dynamo=True) does), or make it one onnxruntime runs")
    fixed = _tiny(tmp_path, nodes, *args, value_info=[_vi("y", [2, 7])],
                  name="fixed.onnx", extra_opsets=["my.ops"])
    g = remat.onnx.load(fixed)
    assert [n["memory"] for n in g["nodes"]] == [2 * 7 * 4, 2 * 3 * 4]
    assert g["nodes"][0]["op"] == "onnx.my.ops.Frob"


def test_no_run(exports, capsys):
    """The TorchScript exporter's ViT: inference leaves sizes unknown;
    onnxruntime measures them unless told not to run."""
    path = exports.get("vit", "torchscript", 18, 1)
    assert _cli(capsys, path, "--no-run") == (
        2, f"remat-onnx: {path}: node '/Expand' (Expand): output "
           "'/Expand_output_0' has an unknown size [None, None, 32]: "
           "onnxruntime can measure it (leave out --no-run, or run=False "
           "in remat.onnx.load)")
    g = remat.onnx.load(path)
    assert g["measured_sizes"] > 0
    expand = next(n for n in g["nodes"] if n["label"] == "/Expand")
    assert expand["shape"] == [[1, 1, 32]]


def test_invalid_models(tmp_path, capsys):
    def branch(op: str):
        return helper.make_graph([helper.make_node(op, ["y"], ["out"])],
                                 op, [], [_vi("out", [2])])
    flow = _tiny(tmp_path, [
        helper.make_node("Relu", ["x"], ["y"], "relu"),
        helper.make_node("If", ["cond"], ["z"], "if",
                         then_branch=branch("Identity"),
                         else_branch=branch("Neg"))],
        [_vi("x", [2]), _vi("cond", [], TensorProto.BOOL)], [_vi("z", [2])],
        name="flow.onnx")
    assert _cli(capsys, flow, "-q") == (
        2, f"remat-onnx: {flow}: node 'if' is an If: control flow is not "
           "supported (export the model with its loops unrolled and its "
           "branches resolved)")
    undefined = _tiny(tmp_path, [helper.make_node("Add", ["x", "w"], ["y"])],
                      [_vi("x", [2])], [_vi("y", [2])], name="undef.onnx")
    rc, err = _cli(capsys, undefined)
    assert rc == 2 and err.startswith(
        f"remat-onnx: {undefined}: invalid ONNX model: ")
    clash = _tiny(tmp_path, [helper.make_node("MatMul", ["x", "x"], ["y"],
                                              "mm")],
                  [_vi("x", [2, 3])], [_vi("y", [2, 2])], name="clash.onnx")
    rc, err = _cli(capsys, clash)
    assert rc == 2 and err.startswith(
        f"remat-onnx: {clash}: shape inference failed: ") and "mm" in err


def test_external_data(tmp_path, exports, monkeypatch):
    """Weights in files beside the model: sizes come from the dims, and
    onnxruntime, when it runs, finds the data beside the model whatever the
    working folder."""
    path = exports.get("vit", "dynamo", 18, 2)
    assert Path(str(path) + ".data").exists()
    monkeypatch.chdir(tmp_path)
    g = remat.onnx.load(path)
    assert g["param_bytes"] > 0 and g["measured_sizes"] == 0
    inline = exports.get("vit", "torchscript", 18, 2)
    m = onnx.load(str(inline))
    folder = tmp_path / "model"
    folder.mkdir()
    onnx.save(m, str(folder / "vit.onnx"), save_as_external_data=True,
              all_tensors_to_one_file=True, location="weights.bin",
              size_threshold=0)
    g = remat.onnx.load(folder / "vit.onnx")
    assert g["measured_sizes"] > 0
    assert g == {**remat.onnx.load(inline), "model": str(folder / "vit.onnx"),
                 "name": "vit"}
    (folder / "weights.bin").unlink()
    with pytest.raises(BridgeError, match="onnxruntime cannot run the model"):
        remat.onnx.load(folder / "vit.onnx")
