"""PC-FedAvg audit: Lemma 4.1's norms of the block matrices and Lemma 6.1 (a), checked exactly.

* :func:`finding_lemma41_norms`: ||A||^2 = 1/m, ||B_i||^2 = 1, ||B_i - A||^2 = (m-1)/m (Lemma 4.1), exact eigenvalues
  of the Gram matrices for m = 2..5;
* :func:`finding_lemma61_identity`: E||Y||^2 = E||Y - E Y||^2 + ||E Y||^2 (Lemma 6.1 (a); (b) follows) for a generic
  3-atom distribution in R^2.
"""
from __future__ import annotations

import sympy as sp

from ..audit import producer
from .derivation_tools import block_matrices, spectral_norm_sq


@producer
def finding_lemma41_norms(ms=(2, 3, 4, 5), n_: int = 2):
    """Lemma 4.1's norms ||A||^2 = 1/m, ||B_i||^2 = 1, ||B_i - A||^2 = (m-1)/m, exactly on the block matrices."""
    from .. import audit as A

    norms = []
    for k in ms:
        A_, B0 = block_matrices(k, n_, 0)
        norms.append((k, spectral_norm_sq(A_), spectral_norm_sq(B0), spectral_norm_sq(B0 - A_)))
    ok = all(a == sp.Rational(1, k) and b == 1 and c == sp.Rational(k - 1, k) for k, a, b, c in norms)
    return A.Finding("pcfedavg.lemma4.1.norms", "statement-vs-proof", ("pcfedavg.lemma4.1.i", "pcfedavg.lemma4.1"),
                     A.CONSISTENT if ok else A.DISCREPANCY,
                     f"||A||^2 = 1/m, ||B_i||^2 = 1 and ||B_i - A||^2 = (m-1)/m "
                     f"{'hold' if ok else 'fail'} on the block matrices (m = {min(ms)}..{max(ms)}, n = {n_}).",
                     f"(m, ||A||^2, ||B_1||^2, ||B_1 - A||^2) = {norms}", "exact eigenvalues of Gram matrices")


def finding_lemma61_identity():
    """Lemma 6.1 (a) for a generic 3-atom distribution in R^2, through :func:`bounds.audit.identity`."""
    from .. import audit as A

    p1, p2 = sp.symbols("_q1 _q2", positive=True)
    pts = [(sp.Symbol(f"_y{j}_0", real=True), sp.Symbol(f"_y{j}_1", real=True)) for j in range(3)]
    probs = (p1, p2, 1 - p1 - p2)
    mean = [sum(probs[j] * pts[j][c] for j in range(3)) for c in range(2)]
    sm = sum(probs[j] * sum(pts[j][c]**2 for c in range(2)) for j in range(3))
    var = sum(probs[j] * sum((pts[j][c] - mean[c])**2 for c in range(2)) for j in range(3))
    ms = sum(mc**2 for mc in mean)
    return A.identity("pcfedavg.lemma6.1", ("pcfedavg.lemma6.1.a", "pcfedavg.lemma6.1.b"), sp.expand(sm),
                      sp.expand(var + ms), "Lemma 6.1 (a) holds for a generic 3-atom distribution in R^2; "
                      "(b) follows since ||E Y||^2 >= 0.")
