"""attnlab: the attention calculations behind the Attention Lab guide.

Every number in the guide is computed by these functions while the site is
built. Start with ``attention``; ``attnlab.lab`` holds the toy (LAB-001).
"""

from attnlab.attention import Attention, attention, causal, mix, project, scale, scores, softmax
from attnlab.examples import we002
from attnlab.layers import (
    EncoderBlockParams,
    FeedForwardParams,
    Head,
    LayerNormParams,
    MultiHead,
    MultiHeadParams,
    cross_attention,
    encoder_block,
    feed_forward,
    gelu,
    init_encoder_block,
    layer_norm,
    multi_head,
    positional_encoding,
    relu,
)
from attnlab.streaming import streaming_attention

__version__ = "0.1.0"

__all__ = ["Attention", "EncoderBlockParams", "FeedForwardParams", "Head", "LayerNormParams", "MultiHead",
           "MultiHeadParams", "attention", "causal", "cross_attention", "encoder_block", "feed_forward", "gelu",
           "init_encoder_block", "layer_norm", "mix", "multi_head", "positional_encoding", "project", "relu",
           "scale", "scores", "softmax", "streaming_attention", "we002"]
