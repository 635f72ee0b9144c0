"""Problems of this paper, one module per family or data set, with their constants known exactly. Keep this file free of code: it is part of every run's code fingerprint."""
