"""Benchmark attnlab's forward pass of all-MiniLM-L6-v2 beside the reference's.

Run ``.venv/bin/python benchmarks/bert_forward.py`` (after ``make test``
has installed the peer extra: PyTorch CPU and transformers). One sentence
of 16 tokens, [CLS] and [SEP] included, goes through

* attnlab: ``attnlab.bert.run`` in float64 numpy, keeping every head's
  steps, and
* the reference: transformers' ``BertModel`` in float32 on PyTorch's CPU
  build, eager attention, returning every layer's weights and hidden states.

Both get the same token ids and produce the same outputs (the peer test
checks them to 1e-5). Each figure is the median (and the fastest) of
``--runs`` timed calls after a few warm-up calls; the machine's load average is printed too, since
other work on a 2-core machine changes both figures. On a busy machine,
``OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1`` (one thread for numpy and for
PyTorch) gives steadier figures. This prints figures and asserts nothing,
so it is not a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import timeit
from collections.abc import Callable

os.environ["HF_HUB_OFFLINE"] = "1"

import numpy as np  # noqa: E402

from attnlab.bert import load_model, run, tokenize  # noqa: E402

SENTENCE = "In winter the grid load rises every evening, when heat pumps run."
TOKENS = 16
WARM_UP = 3


def timings_ms(call: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median and fastest milliseconds of ``runs`` single calls, after a warm-up.

    The fastest call is the one least disturbed by other work on the machine.
    """
    timeit.repeat(call, number=1, repeat=WARM_UP)
    times = [1e3 * t for t in timeit.repeat(call, number=1, repeat=runs)]
    return statistics.median(times), min(times)


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

    ours = timings_ms(lambda: run(ids, real, model), runs)
    theirs = timings_ms(reference_forward, runs)
    print(f"all-MiniLM-L6-v2 forward pass, {TOKENS} tokens, {runs} runs each "
          f"(load average {os.getloadavg()[0]:.1f}, torch threads {torch.get_num_threads()}, "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')})")
    print(f"{'':48}{'median':>10}{'fastest':>10}")
    for name, (median, fastest) in (
        ("attnlab (numpy float64, every head kept)", ours),
        (f"BertModel (torch {torch.__version__} float32, eager)", theirs),
    ):
        print(f"  {name:46}{median:7.1f} ms{fastest:7.1f} ms")
    print(f"  median ratio attnlab / reference: {ours[0] / theirs[0]:.1f}")


if __name__ == "__main__":
    main()
