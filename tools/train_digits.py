"""Train the small digits classifier that lab 00 runs on every device, and write its weights and
held-out test images to ``ovlab/sim/models/data/digits.npz``.

    pip install scikit-learn        # a dev-only dependency: the labs read the .npz, not sklearn
    python tools/train_digits.py    # writes ovlab/sim/models/data/digits.npz (about 40 KB)

The data are scikit-learn's handwritten digits (``sklearn.datasets.load_digits``: 1,797 images of
8x8 pixels with 17 grey levels, 0-16, from the UCI "Optical Recognition of Handwritten Digits"
set). A seeded, stratified split keeps 30 % of them aside; an MLP with one hidden layer of 32
ReLUs (``MLPClassifier``, seeded, full-batch L-BFGS so that the result depends on no sampling
order) learns from the rest. The .npz holds:

- ``w1`` [64, 32], ``b1`` [32], ``w2`` [32, 10], ``b2`` [10] (float32): the weights;
- ``x_test`` [N, 64] (uint8, 0-16) and ``y_test`` [N] (uint8): the held-out images and labels;
- ``hidden_max``: the largest hidden activation on the training images (the INT8 model's
  calibration range for its second layer, as NNCF would compute it on a calibration set);
- ``train_accuracy``, ``sklearn_version``, ``seed``: how it was made.

Running it again with the same scikit-learn version writes the same numbers.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "ovlab" / "sim" / "models" / "data" / "digits.npz"
SEED = 0


def train(seed: int = SEED) -> dict[str, np.ndarray]:
    import sklearn
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split
    from sklearn.neural_network import MLPClassifier

    digits = load_digits()
    x = digits.data.astype(np.float32)  # 0-16
    y = digits.target.astype(np.uint8)
    x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.3, random_state=seed,
                                                        stratify=y)
    mlp = MLPClassifier(hidden_layer_sizes=(32,), activation="relu", solver="lbfgs", alpha=1e-3,
                        max_iter=2000, random_state=seed)
    mlp.fit(x_train / 16.0, y_train)  # the graph divides by 16 too
    w1, w2 = (c.astype(np.float32) for c in mlp.coefs_)
    b1, b2 = (c.astype(np.float32) for c in mlp.intercepts_)
    hidden = np.maximum(x_train / 16.0 @ w1 + b1, 0.0)
    return {"w1": w1, "b1": b1, "w2": w2, "b2": b2,
            "x_test": x_test.astype(np.uint8), "y_test": y_test,
            "hidden_max": np.float32(hidden.max()),
            "train_accuracy": np.float32(mlp.score(x_train / 16.0, y_train)),
            "test_accuracy_sklearn": np.float32(mlp.score(x_test / 16.0, y_test)),
            "sklearn_version": np.array(sklearn.__version__), "seed": np.int64(seed)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    data = train()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **data)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes): {len(data['y_test'])} test images, "
          f"train accuracy {float(data['train_accuracy']):.4f}, test accuracy "
          f"{float(data['test_accuracy_sklearn']):.4f} (scikit-learn "
          f"{data['sklearn_version']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
