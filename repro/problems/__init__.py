"""Problem families of FedSGM section 8.1 and 10: problem (1) with certified G and optimum.

Every family is a :class:`ConvexLipschitzProblem`: a loop-free oracle over clients and
leading batch axes, a Lipschitz constant ``G`` certified analytically (see each class
docstring), and ``solve(w0) -> Optimum``, the minimiser closest to ``w0`` with a certified
tolerance (see :mod:`repro.problems._solve`). ``random_instance`` draws seeded instances.
"""
from ._common import NoSolutionError, SolverFailure
from .ball import HuberBall, LogisticBall
from .base import ConvexLipschitzProblem, LocalOracle, Optimum
from .generators import FAMILIES, random_instance
from .max_affine import MaxAffine
from .neyman_pearson import NeymanPearson, neyman_pearson_split
from .piecewise_linear import PiecewiseLinear1D

__all__ = [
    "FAMILIES",
    "ConvexLipschitzProblem",
    "HuberBall",
    "LocalOracle",
    "LogisticBall",
    "MaxAffine",
    "NeymanPearson",
    "NoSolutionError",
    "Optimum",
    "PiecewiseLinear1D",
    "SolverFailure",
    "neyman_pearson_split",
    "random_instance",
]
