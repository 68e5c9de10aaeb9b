"""Small training set-ups for tests and benchmarks.

Each zoo entry is a model factory, its example inputs and a loss: cross
entropy against random targets.  Everything is seeded, so two calls of
`setup(name, seed)` give models with equal weights, and equal inputs and
targets: one can be trained plainly and the other through remat.

Batch 2 and small inputs throughout: images of 3x64x64 where the
architecture and a budget of 0.6 allow (larger where the parameter
gradients would not fit 0.6 of the plain peak: see _IMG96 below; 3x32x32
for the small vision transformer, in 8x8 patches of 4x4, and the small
shifted-window transformer), random weights (weights=None: nothing is
downloaded).

The torchvision families are ResNet, DenseNet, MobileNet v2 and v3,
EfficientNet, RegNet, ConvNeXt, ViT, Swin, SqueezeNet and ShuffleNet; the
zoo adds a GPT-style decoder (`gpt`), a Llama-style one (`llama`: RMSNorm,
SwiGLU, rotary embeddings, 4 query heads sharing 2 key/value heads), an
LSTM cell unrolled over 32 steps (`lstm`) and a small U-Net (`unet`).  Entries marked slow are the larger
stock configurations (densenet121, convnext_tiny, swin_t, ...).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Optional

import torch
import torch.nn.functional as F
from torch import Tensor, nn

__all__ = ["Setup", "ZooEntry", "ENTRIES", "names", "setup", "gpt",
           "llama", "UnrolledLSTM", "UNet", "GPT", "Llama"]

BATCH = 2
CLASSES = 10


@dataclass
class Setup:
    """One training set-up: model (in train mode), example inputs, the
    targets, and `loss_fn(output) -> scalar` (cross entropy against them)."""

    name: str
    model: nn.Module
    inputs: tuple[Tensor, ...]
    target: Tensor
    loss_fn: Callable[[Any], Tensor]

    def step_loss(self, model: Optional[nn.Module] = None) -> Tensor:
        """The loss of one forward pass of `model` (default: self.model)."""
        return self.loss_fn((model or self.model)(*self.inputs))


@dataclass(frozen=True)
class ZooEntry:
    """How to build one set-up: the family it stands for, a factory of no
    arguments, the input shape without the batch, the input kind ("image":
    N(0, 1) floats, "tokens": int64 below `classes`), the number of classes
    the loss is taken over, and whether it is slow on two CPU cores."""

    family: str
    factory: Callable[[], nn.Module]
    shape: tuple[int, ...]
    kind: str = "image"
    classes: int = CLASSES
    slow: bool = False


# --- the zoo's own models ---------------------------------------------------

class CausalSelfAttention(nn.Module):
    """Multi-head self-attention under a causal mask kept as a buffer."""

    def __init__(self, d_model: int, n_heads: int, seq_len: int,
                 dropout: float) -> None:
        super().__init__()
        if d_model % n_heads:
            raise ValueError(f"d_model {d_model} is not a multiple of "
                             f"n_heads {n_heads}")
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.attn_drop = nn.Dropout(dropout)
        self.resid_drop = nn.Dropout(dropout)
        mask = torch.ones(seq_len, seq_len, dtype=torch.bool).triu(1)
        self.register_buffer("mask", mask.view(1, 1, seq_len, seq_len))

    def forward(self, x: Tensor) -> Tensor:
        b, t, c = x.shape
        h = self.n_heads
        q, k, v = self.qkv(x).split(c, dim=2)
        q = q.view(b, t, h, c // h).transpose(1, 2)
        k = k.view(b, t, h, c // h).transpose(1, 2)
        v = v.view(b, t, h, c // h).transpose(1, 2)
        att = q @ k.transpose(-2, -1)
        # In place on the product's own result: the matmul's backward needs
        # q and k, not its output.
        att.mul_(1.0 / math.sqrt(c // h))
        att.masked_fill_(self.mask[:, :, :t, :t], float("-inf"))
        att = self.attn_drop(att.softmax(dim=-1))
        y = (att @ v).transpose(1, 2).reshape(b, t, c)
        return self.resid_drop(self.proj(y))


class DecoderBlock(nn.Module):
    """Pre-norm transformer block: attention and an MLP, each residual."""

    def __init__(self, d_model: int, n_heads: int, seq_len: int,
                 dropout: float) -> None:
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = CausalSelfAttention(d_model, n_heads, seq_len, dropout)
        self.ln2 = nn.LayerNorm(d_model)
        self.fc = nn.Linear(d_model, 4 * d_model)
        self.out = nn.Linear(4 * d_model, d_model)
        self.drop = nn.Dropout(dropout)

    def forward(self, x: Tensor) -> Tensor:
        x = x + self.attn(self.ln1(x))
        m = F.gelu(self.fc(self.ln2(x)))
        m = self.drop(self.out(m))
        # The residual added in place: dropout's backward needs its mask,
        # not its output, so nothing saved for backward is changed.
        m.add_(x)
        return m


class GPT(nn.Module):
    """A GPT-style decoder: token and position embeddings, pre-norm causal
    blocks, the output projection tied to the token embedding."""

    def __init__(self, n_layers: int, d_model: int, n_heads: int,
                 seq_len: int, vocab: int, dropout: float = 0.1) -> None:
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        nn.init.normal_(self.tok.weight, std=0.02)
        self.pos = nn.Parameter(torch.zeros(1, seq_len, d_model))
        nn.init.normal_(self.pos, std=0.02)
        self.drop = nn.Dropout(dropout)
        self.blocks = nn.ModuleList(
            DecoderBlock(d_model, n_heads, seq_len, dropout)
            for _ in range(n_layers))
        self.ln = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)
        self.head.weight = self.tok.weight

    def forward(self, idx: Tensor) -> Tensor:
        t = idx.shape[1]
        x = self.drop(self.tok(idx) + self.pos[:, :t])
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln(x))


def gpt(n_layers: int = 2, d_model: int = 64, n_heads: int = 4,
        seq_len: int = 32, vocab: int = 128, dropout: float = 0.1) -> GPT:
    """A GPT-style decoder with weight tying, a causal-mask buffer, in-place
    ops and dropout; its input is (batch, seq_len) token ids below vocab."""
    return GPT(n_layers, d_model, n_heads, seq_len, vocab, dropout)


class RMSNorm(nn.Module):
    """Root-mean-square normalisation over the last dimension with a
    learned gain and no bias or centring."""

    def __init__(self, dim: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: Tensor) -> Tensor:
        scale = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return x * scale * self.weight


def _rotate_half(x: Tensor) -> Tensor:
    """(x1, x2) -> (-x2, x1) over the two halves of the last dimension."""
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class GroupedQueryAttention(nn.Module):
    """Causal self-attention in which groups of query heads share one key
    and value head, with rotary position embeddings applied to the queries
    and keys; no biases.  The rotation's cosines and sines and the causal
    mask are buffers."""

    def __init__(self, d_model: int, n_heads: int, n_kv_heads: int,
                 seq_len: int, rope_base: float = 10000.0) -> None:
        super().__init__()
        if d_model % n_heads:
            raise ValueError(f"d_model {d_model} is not a multiple of "
                             f"n_heads {n_heads}")
        if n_heads % n_kv_heads:
            raise ValueError(f"n_heads {n_heads} is not a multiple of "
                             f"n_kv_heads {n_kv_heads}")
        head = d_model // n_heads
        if head % 2:
            raise ValueError(f"the head size {head} is odd: rotary "
                             "embeddings turn pairs of features")
        self.n_heads, self.n_kv_heads, self.head = n_heads, n_kv_heads, head
        self.wq = nn.Linear(d_model, n_heads * head, bias=False)
        self.wkv = nn.Linear(d_model, 2 * n_kv_heads * head, bias=False)
        self.wo = nn.Linear(n_heads * head, d_model, bias=False)
        # Frequencies base^(-2i/head) for the pair i, repeated over both
        # halves of a head to match _rotate_half's layout.
        inv = rope_base ** (-torch.arange(0, head, 2).float() / head)
        angles = torch.outer(torch.arange(seq_len).float(), inv)
        angles = torch.cat((angles, angles), dim=-1)
        self.register_buffer("cos", angles.cos().view(1, 1, seq_len, head))
        self.register_buffer("sin", angles.sin().view(1, 1, seq_len, head))
        mask = torch.ones(seq_len, seq_len, dtype=torch.bool).triu(1)
        self.register_buffer("mask", mask.view(1, 1, seq_len, seq_len))

    def _rotate(self, x: Tensor, t: int) -> Tensor:
        return x * self.cos[:, :, :t] + _rotate_half(x) * self.sin[:, :, :t]

    def forward(self, x: Tensor) -> Tensor:
        b, t, _ = x.shape
        h, kvh, d = self.n_heads, self.n_kv_heads, self.head
        q = self.wq(x).view(b, t, h, d).transpose(1, 2)
        k, v = self.wkv(x).split(kvh * d, dim=2)
        k = k.view(b, t, kvh, d).transpose(1, 2)
        v = v.view(b, t, kvh, d).transpose(1, 2)
        q, k = self._rotate(q, t), self._rotate(k, t)
        # Each key/value head serves h // kvh consecutive query heads.
        k = k.repeat_interleave(h // kvh, dim=1)
        v = v.repeat_interleave(h // kvh, dim=1)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(d))
        att = att.masked_fill(self.mask[:, :, :t, :t], float("-inf"))
        y = att.softmax(dim=-1) @ v
        return self.wo(y.transpose(1, 2).reshape(b, t, h * d))


class SwiGLU(nn.Module):
    """The gated MLP: down(silu(gate(x)) * up(x)), no biases."""

    def __init__(self, d_model: int, hidden: int) -> None:
        super().__init__()
        self.gate = nn.Linear(d_model, hidden, bias=False)
        self.up = nn.Linear(d_model, hidden, bias=False)
        self.down = nn.Linear(hidden, d_model, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        return self.down(F.silu(self.gate(x)) * self.up(x))


class LlamaBlock(nn.Module):
    """Pre-norm block: RMSNorm, grouped-query attention with rotary
    embeddings, RMSNorm, SwiGLU; each residual."""

    def __init__(self, d_model: int, n_heads: int, n_kv_heads: int,
                 seq_len: int, hidden: int) -> None:
        super().__init__()
        self.attn_norm = RMSNorm(d_model)
        self.attn = GroupedQueryAttention(d_model, n_heads, n_kv_heads,
                                          seq_len)
        self.mlp_norm = RMSNorm(d_model)
        self.mlp = SwiGLU(d_model, hidden)

    def forward(self, x: Tensor) -> Tensor:
        x = x + self.attn(self.attn_norm(x))
        return x + self.mlp(self.mlp_norm(x))


class Llama(nn.Module):
    """A Llama-style decoder: token embedding (positions come from the
    rotary embeddings), pre-norm blocks, a final RMSNorm and an untied
    output projection; no dropout."""

    def __init__(self, n_layers: int, d_model: int, n_heads: int,
                 n_kv_heads: int, seq_len: int, vocab: int,
                 hidden: int) -> None:
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        nn.init.normal_(self.tok.weight, std=0.02)
        self.blocks = nn.ModuleList(
            LlamaBlock(d_model, n_heads, n_kv_heads, seq_len, hidden)
            for _ in range(n_layers))
        self.norm = RMSNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, idx: Tensor) -> Tensor:
        x = self.tok(idx)
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x))


def llama(n_layers: int = 2, d_model: int = 64, n_heads: int = 4,
          n_kv_heads: int = 2, seq_len: int = 32, vocab: int = 128,
          hidden: Optional[int] = None) -> Llama:
    """A Llama-style decoder (RMSNorm, SwiGLU, rotary embeddings, query
    heads in groups sharing key/value heads); its input is (batch,
    seq_len) token ids below vocab.  The MLP's hidden width defaults to
    Llama's 8/3 of d_model, rounded up to a multiple of 16."""
    if hidden is None:
        hidden = math.ceil(8 * d_model / 3 / 16) * 16
    return Llama(n_layers, d_model, n_heads, n_kv_heads, seq_len, vocab,
                 hidden)


class UnrolledLSTM(nn.Module):
    """An nn.LSTMCell applied over the sequence step by step (the sequence
    length is the input's), then a linear classifier of the last state."""

    def __init__(self, input_size: int = 16, hidden: int = 64,
                 classes: int = CLASSES) -> None:
        super().__init__()
        self.hidden = hidden
        self.cell = nn.LSTMCell(input_size, hidden)
        self.head = nn.Linear(hidden, classes)

    def forward(self, x: Tensor) -> Tensor:
        h = x.new_zeros(x.shape[0], self.hidden)
        c = x.new_zeros(x.shape[0], self.hidden)
        for t in range(x.shape[1]):
            h, c = self.cell(x[:, t], (h, c))
        return self.head(h)


def _double_conv(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True))


class UNet(nn.Module):
    """A small U-Net: `depth` down steps (double conv, max-pool), a
    bottleneck, and up steps (transposed conv, concatenated skip, double
    conv); per-pixel logits over `classes`."""

    def __init__(self, in_channels: int = 3, classes: int = 2,
                 width: int = 8, depth: int = 3) -> None:
        super().__init__()
        chans = [width * 2 ** i for i in range(depth + 1)]
        self.down = nn.ModuleList()
        cin = in_channels
        for c in chans[:-1]:
            self.down.append(_double_conv(cin, c))
            cin = c
        self.bottom = _double_conv(chans[-2], chans[-1])
        self.ups = nn.ModuleList()
        self.up_convs = nn.ModuleList()
        for c in reversed(chans[:-1]):
            self.ups.append(nn.ConvTranspose2d(2 * c, c, 2, stride=2))
            self.up_convs.append(_double_conv(2 * c, c))
        self.head = nn.Conv2d(chans[0], classes, 1)

    def forward(self, x: Tensor) -> Tensor:
        skips = []
        for block in self.down:
            x = block(x)
            skips.append(x)
            x = F.max_pool2d(x, 2)
        x = self.bottom(x)
        for up, conv, skip in zip(self.ups, self.up_convs, reversed(skips)):
            x = conv(torch.cat([up(x), skip], dim=1))
        return self.head(x)


# --- torchvision configurations ----------------------------------------------

def _tv(name: str, **kwargs: Any) -> Callable[[], nn.Module]:
    """A stock torchvision builder with random weights and 10 classes."""
    def build() -> nn.Module:
        import torchvision
        return torchvision.models.get_model(name, weights=None,
                                            num_classes=CLASSES, **kwargs)
    return build


def _densenet_small() -> nn.Module:
    from torchvision.models import DenseNet
    return DenseNet(growth_rate=12, block_config=(2, 2, 2, 2),
                    num_init_features=16, num_classes=CLASSES)


def _convnext_small() -> nn.Module:
    from torchvision.models.convnext import CNBlockConfig, ConvNeXt
    setting = [CNBlockConfig(16, 32, 1), CNBlockConfig(32, 64, 1),
               CNBlockConfig(64, 128, 2), CNBlockConfig(128, None, 1)]
    return ConvNeXt(setting, stochastic_depth_prob=0.1, num_classes=CLASSES)


def _vit_small() -> nn.Module:
    from torchvision.models import VisionTransformer
    return VisionTransformer(image_size=32, patch_size=4, num_layers=2,
                             num_heads=4, hidden_dim=64, mlp_dim=128,
                             dropout=0.1, num_classes=CLASSES)


def _swin_small(v2: bool = False) -> Callable[[], nn.Module]:
    def build() -> nn.Module:
        from torchvision.models import swin_transformer as sw
        extra: dict[str, Any] = {}
        if v2:
            extra = {"block": sw.SwinTransformerBlockV2,
                     "downsample_layer": sw.PatchMergingV2}
        return sw.SwinTransformer(patch_size=[4, 4], embed_dim=32,
                                  depths=[2, 2], num_heads=[2, 4],
                                  window_size=[4, 4], num_classes=CLASSES,
                                  **extra)
    return build


_IMG = (3, 64, 64)
_IMG32 = (3, 32, 32)
# remat's budget counts the parameter gradients, which every schedule holds
# at the end: a fraction 0.6 fits only where they are below 0.6 of the
# plain peak.  At batch 2 the models whose parameters outweigh their
# activations at 64x64 get the smallest input that leaves room.
_IMG96 = (3, 96, 96)
_IMG128 = (3, 128, 128)
_IMG224 = (3, 224, 224)

ENTRIES: dict[str, ZooEntry] = {
    "resnet18": ZooEntry("ResNet", _tv("resnet18"), _IMG224),
    "densenet_small": ZooEntry("DenseNet", _densenet_small, _IMG),
    "mobilenet_v2": ZooEntry("MobileNet v2", _tv("mobilenet_v2"), _IMG),
    "mobilenet_v3_small": ZooEntry("MobileNet v3", _tv("mobilenet_v3_small"),
                                   _IMG128),
    "efficientnet_b0": ZooEntry("EfficientNet", _tv("efficientnet_b0"),
                                _IMG96),
    "regnet_y_400mf": ZooEntry("RegNet", _tv("regnet_y_400mf"), _IMG128),
    "convnext_small": ZooEntry("ConvNeXt", _convnext_small, _IMG),
    "vit_small": ZooEntry("ViT", _vit_small, _IMG32),
    "swin_small": ZooEntry("Swin", _swin_small(), _IMG32),
    "squeezenet1_1": ZooEntry("SqueezeNet", _tv("squeezenet1_1"), _IMG96),
    "shufflenet_v2_x0_5": ZooEntry("ShuffleNet", _tv("shufflenet_v2_x0_5"),
                                   _IMG),
    "gpt": ZooEntry("GPT", gpt, (32,), kind="tokens", classes=128),
    "llama": ZooEntry("Llama", llama, (32,), kind="tokens", classes=128),
    "lstm": ZooEntry("LSTM", UnrolledLSTM, (32, 16)),
    "unet": ZooEntry("U-Net", UNet, _IMG, classes=2),
    # The stock configurations: larger, for benchmarks and slow tests.
    "densenet121": ZooEntry("DenseNet", _tv("densenet121"), _IMG224,
                            slow=True),
    "convnext_tiny": ZooEntry("ConvNeXt", _tv("convnext_tiny"), _IMG224,
                              slow=True),
    "swin_t": ZooEntry("Swin", _tv("swin_t"), _IMG224, slow=True),
    "swin_v2_small": ZooEntry("Swin", _swin_small(v2=True), _IMG32,
                              slow=True),
    "resnet50": ZooEntry("ResNet", _tv("resnet50"), _IMG224, slow=True),
    "gpt_4l": ZooEntry("GPT", lambda: gpt(n_layers=4, d_model=128,
                                          n_heads=4, seq_len=64, vocab=256),
                       (64,), kind="tokens", classes=256, slow=True),
}


def names(slow: bool = True) -> list[str]:
    """The zoo's entry names, the slow ones too unless slow=False."""
    return [n for n, e in ENTRIES.items() if slow or not e.slow]


def _inputs(entry: ZooEntry, g: torch.Generator) -> Tensor:
    shape = (BATCH,) + entry.shape
    if entry.kind == "tokens":
        return torch.randint(0, entry.classes, shape, generator=g)
    return torch.randn(shape, generator=g)


def _target(entry: ZooEntry, g: torch.Generator) -> Tensor:
    if entry.kind == "tokens":  # next-token targets, one per position
        shape: tuple[int, ...] = (BATCH,) + entry.shape
    elif entry.family == "U-Net":  # one class per pixel
        shape = (BATCH,) + entry.shape[1:]
    else:
        shape = (BATCH,)
    return torch.randint(0, entry.classes, shape, generator=g)


def _cross_entropy(target: Tensor) -> Callable[[Any], Tensor]:
    def loss_fn(out: Tensor) -> Tensor:
        if out.dim() == 3:  # (batch, seq, vocab) against (batch, seq)
            return F.cross_entropy(out.flatten(0, 1), target.flatten())
        return F.cross_entropy(out, target)
    return loss_fn


def setup(name: str, seed: int = 0,
          device: Optional[torch.device | str] = None) -> Setup:
    """Build zoo entry `name`: the model's weights drawn under
    torch.manual_seed(seed), the inputs and targets from their own generator
    seeded seed + 1; the model in train mode, on `device` if given."""
    try:
        entry = ENTRIES[name]
    except KeyError:
        raise KeyError(f"no zoo entry {name!r}; there are: "
                       f"{', '.join(ENTRIES)}") from None
    torch.manual_seed(seed)
    model = entry.factory().train()
    g = torch.Generator().manual_seed(seed + 1)
    x, y = _inputs(entry, g), _target(entry, g)
    if device is not None:
        model, x, y = model.to(device), x.to(device), y.to(device)
    return Setup(name, model, (x,), y, _cross_entropy(y))
