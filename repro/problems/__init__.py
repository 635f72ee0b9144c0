"""Problems with exactly known constants, one module per family or data set.

FedSGM: the convex Lipschitz families of its Sections 8.1 and 10 (:mod:`.piecewise_linear`, :mod:`.max_affine`,
:mod:`.ball`, :mod:`.neyman_pearson`; seeded instances from :mod:`.generators`). PC-FedAvg: :mod:`.personalized`,
:mod:`.personalized_instances`, :mod:`.softmax`. FedCLUP: :mod:`.linreg_pfl`, :mod:`.fedclup_synthetic`,
:mod:`.mnist_classes` (on :mod:`.stacked_clients`). SSCA: :mod:`.swish_network`, :mod:`.ssca_problems`,
:mod:`.mnist_pixels`, and the cvxpy references of its server problems, :mod:`.ssca_server`. (:mod:`.base` is
FedSGM's problem contract, not a common base: one contract per paper until the papers get packages of their own.)

Keep this file free of imports: every run function imports this package, so whatever it imports becomes part of
every run's code fingerprint (a FedSGM family would then be part of every other paper's runs).
"""
