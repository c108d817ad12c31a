"""What attention costs: exact counts of entries, bytes and multiply-adds (integer arithmetic on the shapes).

Naive attention writes down one n×m score matrix per head and per layer
(claim CL-026), so its memory and arithmetic grow with T² for T tokens; the
rest of a layer grows with T, so the T² part takes over only past a length
set by the widths (``layer_madds``, ``crossover``; claim CL-041).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from attnlab.checks import at_least, integer, positive_int
from attnlab.text import Rounded

__all__ = ["UNITS", "Cost", "LayerMadds", "causal_visible", "cost", "crossover", "layer_madds", "readable_bytes"]


UNITS: tuple[str, ...] = ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")
"""Binary units: each is 1024 of the one before."""


def tenths(count: int, unit: int) -> int:
    """``count`` / 1024^unit in tenths, rounded half to even as ``fmt`` rounds (exact integer arithmetic)."""
    return round(Fraction(10 * count, 1024**unit))


def readable_bytes(count: int) -> Rounded:
    """``count`` bytes (0 or more) in the largest binary unit that shows at least 1, one decimal at most.

    The unit is chosen after rounding: 1048575 bytes read "1 MiB", not "1024 KiB".

    >>> readable_bytes(128), readable_bytes(3 * 2**29), readable_bytes(2**40)
    ('128 bytes', '1.5 GiB', '1 TiB')
    """
    count = at_least("count", count, 0)
    unit = 0
    while unit < len(UNITS) - 1 and count >= 1024 ** (unit + 1):
        unit += 1
    if unit < len(UNITS) - 1 and tenths(count, unit) >= 1024 * 10:  # rounds up to 1024 of this unit
        unit += 1
    whole, tenth = divmod(tenths(count, unit), 10)
    return Rounded(f"{whole}{f'.{tenth}' if tenth else ''} {UNITS[unit]}", count)


def _ramp(upto: int) -> int:
    """The triangular number of ``upto`` (0 below 1)."""
    return upto * (upto + 1) // 2 if upto > 0 else 0


def causal_visible(n: int, m: int | None = None, offset: int | None = None) -> int:
    """How many of the n×m entries ``attnlab.causal(n, m, offset)`` leaves visible, in closed form.

    Row i holds min(max(i + offset + 1, 0), m) visible keys; for n = m = T the sum is T(T+1)/2.
    """
    n = positive_int("n", n)
    m = n if m is None else positive_int("m", m)
    shift = m - n if offset is None else integer("offset", offset)
    # Row i holds clip(x, 0, m) keys with x = i + shift + 1, and
    # clip(x, 0, m) = max(x, 0) − max(x − m, 0); sum each ramp over x = low … high.
    low, high = shift + 1, shift + n
    return _ramp(high) - _ramp(low - 1) - (_ramp(high - m) - _ramp(low - 1 - m))


@dataclass(frozen=True)
class Cost:
    """Exact sizes of naive attention for n queries over m keys; "per head" means one head of one layer.

    ``kv_heads`` is the number of key/value heads per layer: ``heads`` in the
    original design, fewer when query heads share them (claim CL-034).
    """

    n: int
    m: int
    d_k: int
    d_v: int
    heads: int
    layers: int
    bytes_per_number: int
    kv_heads: int

    @property
    def copies(self) -> int:
        """How many score matrices a forward pass computes: one per head per layer (training keeps them all)."""
        return self.heads * self.layers

    @property
    def score_entries(self) -> int:
        """Entries of one n×m score matrix (per head)."""
        return self.n * self.m

    @property
    def score_bytes(self) -> int:
        """Bytes of one n×m score matrix (per head)."""
        return self.score_entries * self.bytes_per_number

    @property
    def total_score_entries(self) -> int:
        """Entries of all score matrices, over every head and layer."""
        return self.score_entries * self.copies

    @property
    def total_score_bytes(self) -> int:
        """Bytes of all score matrices, over every head and layer."""
        return self.score_bytes * self.copies

    def block_bytes(self, block: int) -> int:
        """Bytes of one n×block slice of scores: all that streaming attention holds at once (per head)."""
        return self.n * min(self.m, positive_int("block", block)) * self.bytes_per_number

    @property
    def score_madds(self) -> int:
        """Multiply-adds of Q Kᵀ per head: n·m dot products of length d_k."""
        return self.n * self.m * self.d_k

    @property
    def mix_madds(self) -> int:
        """Multiply-adds of the weighted sum of values per head: n·m·d_v."""
        return self.n * self.m * self.d_v

    @property
    def madds(self) -> int:
        """Multiply-adds of Q Kᵀ and the weighted sum together, per head."""
        return self.score_madds + self.mix_madds

    @property
    def total_madds(self) -> int:
        """Multiply-adds of Q Kᵀ and the weighted sum over every head and layer."""
        return self.madds * self.copies

    @property
    def causal_visible(self) -> int:
        """Entries a causal mask leaves visible per head (queries at the last n positions)."""
        return causal_visible(self.n, self.m)

    @property
    def kv_cache_bytes(self) -> int:
        """Bytes of one sequence's key/value cache over every layer: m·(d_k + d_v)·kv_heads·layers·bytes."""
        return self.m * (self.d_k + self.d_v) * self.kv_heads * self.layers * self.bytes_per_number


def cost(n: int, m: int | None = None, *, d_k: int, d_v: int | None = None, heads: int = 1,
         layers: int = 1, bytes_per_number: int = 8, kv_heads: int | None = None) -> Cost:
    """Exact cost of naive attention for n queries over m keys (m = n = T if omitted).

    ``d_k`` and ``d_v`` (default ``d_k``) are per-head widths; ``bytes_per_number``
    is 8 for float64, 4 for float32, 2 for float16; ``kv_heads`` (default
    ``heads``) must divide ``heads``.

    Examples
    --------
    >>> c = cost(4, d_k=2)
    >>> c.score_entries, c.causal_visible, c.score_madds, c.score_bytes
    (16, 10, 32, 128)
    """
    n = positive_int("n", n)
    m = n if m is None else positive_int("m", m)
    d_k = positive_int("d_k", d_k)
    d_v = d_k if d_v is None else positive_int("d_v", d_v)
    heads = positive_int("heads", heads)
    shared = heads if kv_heads is None else positive_int("kv_heads", kv_heads)
    if heads % shared:
        raise ValueError(f"kv_heads must divide heads (each key/value head serves a whole group of query "
                         f"heads), got kv_heads={shared} for heads={heads}")
    return Cost(n, m, d_k, d_v, heads, positive_int("layers", layers),
                positive_int("bytes_per_number", bytes_per_number), shared)


@dataclass(frozen=True)
class LayerMadds:
    """Multiply-adds of one encoder layer over T tokens, split by how they grow (claim CL-041).

    ``linear``: projections and W_O (4·T·d_model²) and the FFN (2·T·d_model·d_ff);
    ``quadratic``: every head's scores and mixing, 2·T²·d_model.
    """

    linear: int
    quadratic: int

    @property
    def quadratic_share(self) -> float:
        """The quadratic part's share of the layer's multiply-adds, between 0 and 1."""
        return self.quadratic / (self.linear + self.quadratic)


def layer_madds(t: int, d_model: int, d_ff: int | None = None) -> LayerMadds:
    """Exact multiply-adds of one layer's matrix products over ``t`` tokens; ``d_ff`` defaults to 4·d_model."""
    t, d_model = positive_int("t", t), positive_int("d_model", d_model)
    inner = 4 * d_model if d_ff is None else positive_int("d_ff", d_ff)
    return LayerMadds(4 * t * d_model**2 + 2 * t * d_model * inner, 2 * t**2 * d_model)


def crossover(d_model: int, d_ff: int | None = None) -> int:
    """The length T = 2·d_model + d_ff at which a layer's quadratic multiply-adds equal its linear ones.

    >>> crossover(512), layer_madds(1024, 512).quadratic_share
    (3072, 0.25)
    """
    d_model = positive_int("d_model", d_model)
    return 2 * d_model + (4 * d_model if d_ff is None else positive_int("d_ff", d_ff))
