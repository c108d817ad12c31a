"""Benchmark attnlab's forward pass of all-MiniLM-L6-v2 beside the reference's.

Run ``.venv/bin/python benchmarks/bert_forward.py`` (after ``make test``
has installed the peer extra: PyTorch CPU and transformers). One sentence
of 16 tokens, [CLS] and [SEP] included, goes through

* attnlab: ``attnlab.bert.run`` in float64 numpy, keeping every head's
  steps, twice: with ``stacked=True`` (every head of a layer in one
  product, the path ``encode`` and the site build use) and one head at a
  time (the path the chapter teaches), and
* the reference: transformers' ``BertModel`` in float32 on PyTorch's CPU
  build, eager attention, returning every layer's weights and hidden states.

Both get the same token ids and produce the same outputs (the peer test
checks them to 1e-5). Each figure is the median (and the fastest) of
``--runs`` timed calls, the three taking turns in blocks of ten after a few
warm-up calls; the machine's load average is printed too, since other work
on a 2-core machine changes every figure. On a busy machine,
``OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1`` (one thread for numpy and for
PyTorch) gives steadier figures. ``OPENBLAS_CORETYPE``, printed with the
figures, chooses numpy's matrix kernels: the project's machine sets
``Haswell`` (AVX2), although its CPU has AVX-512, which PyTorch uses; on such
a CPU ``OPENBLAS_CORETYPE=SkylakeX`` gives numpy the AVX-512 kernels too. This prints figures and asserts nothing,
so it is not a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import timeit
from collections.abc import Callable

os.environ["HF_HUB_OFFLINE"] = "1"

import numpy as np

from attnlab.bert import load_model, run, tokenize

SENTENCE = "In winter the grid load rises every evening, when heat pumps run."
TOKENS = 16
WARM_UP = 3
BLOCK = 10


def timings_ms(calls: dict[str, Callable[[], object]], runs: int) -> dict[str, tuple[float, float]]:
    """Median and fastest milliseconds of ``runs`` single calls of each.

    The calls take turns in blocks of ``BLOCK`` timed calls, each block after
    ``WARM_UP`` untimed ones (numpy's and PyTorch's thread pools need a call to
    settle after the other ran), so a burst of other work on the shared
    machine slows all of them alike instead of whichever ran then. The
    fastest call is the one least disturbed.
    """
    times: dict[str, list[float]] = {name: [] for name in calls}
    for start in range(0, runs, BLOCK):
        for name, call in calls.items():
            timeit.repeat(call, number=1, repeat=WARM_UP)
            times[name] += [1e3 * t for t in timeit.repeat(call, number=1, repeat=min(BLOCK, runs - start))]
    return {name: (statistics.median(found), min(found)) for name, found in times.items()}


def main() -> None:
    """Time both forward passes on the same token ids and print the medians, fastest calls and ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50, help="timed calls per figure (default 50)")
    runs = parser.parse_args().runs

    try:
        import torch
        from transformers import BertModel, logging
    except ImportError as error:
        raise SystemExit(f"the reference needs the peer extra: pip install -e \".[peer]\" ({error})") from error

    model = load_model()
    batch = tokenize(SENTENCE, model)
    if batch.ids.shape[1] != TOKENS:
        raise SystemExit(f"the sentence gives {batch.ids.shape[1]} tokens, not {TOKENS}: change SENTENCE")
    ids, real = batch.ids[0], batch.real[0]

    logging.set_verbosity_error()
    logging.disable_progress_bar()
    reference = BertModel.from_pretrained(str(model.directory), local_files_only=True,
                                          attn_implementation="eager").eval()
    inputs = {"input_ids": torch.from_numpy(batch.ids),
              "attention_mask": torch.from_numpy(batch.real.astype(np.int64)),
              "output_attentions": True, "output_hidden_states": True}

    def reference_forward() -> None:
        with torch.no_grad():
            reference(**inputs)

    reference_name = f"BertModel (torch {torch.__version__} float32, eager)"
    figures = timings_ms({
        "attnlab, stacked heads (numpy float64)": lambda: run(ids, real, model, stacked=True),
        "attnlab, one head at a time (numpy float64)": lambda: run(ids, real, model),
        reference_name: reference_forward,
    }, runs)
    print(f"all-MiniLM-L6-v2 forward pass, {TOKENS} tokens, {runs} runs each, in turns of {BLOCK} "
          f"(load average {os.getloadavg()[0]:.1f}, torch threads {torch.get_num_threads()}, "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}, "
          f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', 'unset')})")
    print(f"{'':48}{'median':>10}{'fastest':>10}")
    for name, (median, fastest) in figures.items():
        print(f"  {name:46}{median:7.1f} ms{fastest:7.1f} ms")
    reference = figures.pop(reference_name)[0]
    for name, (median, _) in figures.items():
        print(f"  median ratio {name.split(' (')[0]} / reference: {median / reference:.1f}")


if __name__ == "__main__":
    main()
