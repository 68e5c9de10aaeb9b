"""Small models for tests/e2e_torch.sh (remat-torch MODEL = this
file:FACTORY).  Each factory takes no argument and returns an nn.Module;
the comment gives the --input shape it expects."""

import torch
from torch import nn


class MLP(nn.Module):
    """--input 32: seven linear layers with ReLU and dropout, the outputs
    of the first three added back before the classifier (long skips keep
    them alive, so inference has something to recompute too)."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(32, 32) for _ in range(7))
        self.drop = nn.Dropout(0.2)
        self.head = nn.Linear(32, 10)

    def forward(self, x):
        skips = []
        for i, layer in enumerate(self.layers):
            x = torch.relu(layer(x))
            if i == 3:
                x = self.drop(x)
            if i < 3:
                skips.append(x)
        for s in skips:
            x = x + s
        return self.head(x)


def mlp():
    return MLP()


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += x
        return self.relu(out)


def _branch(k):
    return nn.Sequential(nn.Conv2d(3, 8, k, padding=k // 2),
                         nn.BatchNorm2d(8), nn.ReLU(inplace=True))


class ResCNN(nn.Module):
    """--input 3x16x16: three stem branches (1x1, 3x3 and 5x5 convolutions,
    batch norm, in-place ReLU), a residual block on the first, the other two
    added back before pooling and a classifier (their long skips leave
    inference something to recompute)."""

    def __init__(self):
        super().__init__()
        self.branches = nn.ModuleList(_branch(k) for k in (1, 3, 5))
        self.block = Block(8)
        self.head = nn.Linear(8, 10)

    def forward(self, x):
        b = [f(x) for f in self.branches]
        y = self.block(b[0]) + b[2] + b[1]
        return self.head(
            nn.functional.adaptive_avg_pool2d(y, 1).flatten(1))


def rescnn():
    return ResCNN()


class TransformerBlock(nn.Module):
    """--input 8x16 (sequence x features): an embedding, one pre-norm
    transformer block (multi-head self-attention with dropout on the
    attention weights, a GELU MLP), then a classifier on the mean over the
    sequence of the embedding, the normalised embedding, the attention
    block's output and the MLP's."""

    def __init__(self, d_in=16, d=32, heads=2, mlp_ratio=2):
        super().__init__()
        self.heads = heads
        self.embed = nn.Linear(d_in, d)
        self.norm1 = nn.LayerNorm(d)
        self.q, self.k, self.v = (nn.Linear(d, d) for _ in range(3))
        self.proj = nn.Linear(d, d)
        self.drop = nn.Dropout(0.1)
        self.norm2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, mlp_ratio * d), nn.GELU(),
                                 nn.Linear(mlp_ratio * d, d))
        self.head = nn.Linear(d, 5)

    def forward(self, x):
        e = self.embed(x)
        h = self.norm1(e)
        b, t, d = h.shape
        q, k, v = (f(h).view(b, t, self.heads, -1).transpose(1, 2)
                   for f in (self.q, self.k, self.v))
        att = (q @ k.transpose(-2, -1)) * (q.shape[-1] ** -0.5)
        att = self.drop(att.softmax(-1))
        y = (att @ v).transpose(1, 2).reshape(b, t, d)
        a = e + self.proj(y)
        out = a + self.mlp(self.norm2(a))
        return self.head(sum(z.mean(1) for z in (out, a, h, e)))


def transformer():
    return TransformerBlock()


class ValueDependent(nn.Module):
    """--input 8: branches on a tensor's value, which no trace can fix."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        y = self.lin(x)
        if y.sum() > 0:
            return y * 2
        return y


def value_dependent():
    return ValueDependent()


def not_a_module():
    return 42
