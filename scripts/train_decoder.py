"""Train the guide's small decoder: GPT-2's architecture on copies of random letters.

    /work/venv/bin/python scripts/train_decoder.py [--steps N] [--out FOLDER]

Each training sequence is 64 characters of random lower-case letters in
which a stretch repeats: a random prefix, a segment, the same segment
again, random letters after. The loss is taken on the second copy only
(from its second character on), where the next letter can be predicted
from the first copy and from nothing else, so the model has to learn to
look back. Where the copies start varies, so a shortcut on positions
(look at i/2) does not work.

The run is deterministic: one thread, a fixed seed, sequences drawn from a
seeded ``torch.Generator``. It writes the Hugging Face layout
(``config.json``, ``model.safetensors``, ``vocab.json``) so that
``GPT2LMHeadModel.from_pretrained(folder)`` loads it, and
``training-log.json``: the settings, the loss at every step, the held-out
accuracy every ``EVAL_EVERY`` steps, the time taken.
``tests/peer/test_decoder_peer.py`` re-runs the first steps and compares
them with that log.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch
from transformers import GPT2Config, GPT2LMHeadModel

VOCABULARY = " abcdefghijklmnopqrstuvwxyz.,|"
"""The characters a reader can type, one token each: a space, the letters, three separators."""
LETTERS = range(1, 27)
"""The ids of a…z: the training text uses these only."""
CONTEXT = 64
SETTINGS = {"seed": 0, "steps": 8000, "target": 0.95, "batch": 32, "lr": 1e-3, "segment": [8, 32], "context": CONTEXT}
EVAL_EVERY = 100
"""Steps between held-out evaluations; training stops at the first that reaches ``SETTINGS["target"]``."""
HELD_OUT = 512
"""Held-out sequences for the accuracy (drawn from a seed of their own)."""
OUT = Path(__file__).resolve().parents[1] / "attnlab" / "data" / "decoder"


def config() -> GPT2Config:
    """2 layers, 4 heads of 16 dimensions, width 64, context 64, no dropout, tied embeddings."""
    return GPT2Config(vocab_size=len(VOCABULARY), n_positions=CONTEXT, n_embd=64, n_layer=2, n_head=4,
                      n_inner=256, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
                      tie_word_embeddings=True, bos_token_id=None, eos_token_id=None)


def batch(n: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """``n`` sequences (n × 64 ids) and their loss mask (n × 64: True where the token is predictable).

    Sequence: prefix (random letters, length p) · segment (length L) · segment again · random letters.
    The mask marks the second copy's tokens from its second on (position p + L + 1 … p + 2L − 1).
    """
    low, high = SETTINGS["segment"]
    ids = torch.randint(LETTERS.start, LETTERS.stop, (n, CONTEXT), generator=generator)   # n × 64
    mask = torch.zeros(n, CONTEXT, dtype=torch.bool)
    lengths = torch.randint(low, high + 1, (n,), generator=generator)
    for row, length in enumerate(lengths.tolist()):
        start = int(torch.randint(0, CONTEXT - 2 * length + 1, (1,), generator=generator))
        ids[row, start + length:start + 2 * length] = ids[row, start:start + length]
        mask[row, start + length + 1:start + 2 * length] = True
    return ids, mask


def masked_loss(model: GPT2LMHeadModel, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Cross-entropy of the next token, averaged over the masked positions only."""
    logits = model(ids).logits[:, :-1]                       # n × 63 × vocabulary
    loss = torch.nn.functional.cross_entropy(logits.transpose(1, 2), ids[:, 1:], reduction="none")
    return loss[mask[:, 1:]].mean()


@torch.no_grad()
def accuracy(model: GPT2LMHeadModel, ids: torch.Tensor, mask: torch.Tensor) -> float:
    """Share of the masked tokens whose most probable prediction (greedy) is right."""
    predicted = model(ids).logits[:, :-1].argmax(-1)          # n × 63
    return float((predicted == ids[:, 1:])[mask[:, 1:]].float().mean())


def train(steps: int) -> tuple[GPT2LMHeadModel, dict]:
    """Train from scratch for at most ``steps`` steps, stopping once the held-out accuracy reaches the target."""
    torch.set_num_threads(1)
    torch.manual_seed(SETTINGS["seed"])
    model = GPT2LMHeadModel(config())
    optimiser = torch.optim.AdamW(model.parameters(), lr=SETTINGS["lr"], weight_decay=0.0)
    data = torch.Generator().manual_seed(SETTINGS["seed"])
    held_out = batch(HELD_OUT, torch.Generator().manual_seed(SETTINGS["seed"] + 1))
    losses, accuracies = [], []
    began, cpu = time.perf_counter(), time.process_time()
    for step in range(1, steps + 1):
        loss = masked_loss(model, *batch(SETTINGS["batch"], data))
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        losses.append(loss.item())
        if step % EVAL_EVERY == 0 or step == steps:
            accuracies.append([step, accuracy(model, *held_out)])
            print(f"step {step}: loss {losses[-1]:.4f}, held-out accuracy {accuracies[-1][1]:.3f}", flush=True)
            if accuracies[-1][1] >= SETTINGS["target"]:
                break
    log = {"settings": {**SETTINGS, "steps": steps}, "vocabulary": VOCABULARY, "held_out": HELD_OUT,
           "loss": losses, "accuracy": accuracies, "seconds": round(time.perf_counter() - began, 1),
           "cpu_seconds": round(time.process_time() - cpu, 1), "torch": torch.__version__}
    return model, log


def save(model: GPT2LMHeadModel, log: dict, out: Path) -> None:
    """The Hugging Face layout and the log, in ``out``."""
    model.save_pretrained(out)
    (out / "vocab.json").write_text(json.dumps({c: i for i, c in enumerate(VOCABULARY)}, indent=1) + "\n")
    (out / "training-log.json").write_text(json.dumps(log) + "\n")
    (out / "generation_config.json").unlink(missing_ok=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=SETTINGS["steps"])
    parser.add_argument("--out", type=Path, default=OUT)
    arguments = parser.parse_args()
    model, log = train(arguments.steps)
    save(model, log, arguments.out)


if __name__ == "__main__":
    main()
