"""The mathematics of pcfedavg: ``claims`` (the encoded results), ``findings`` (what the symbolic audit finds: the
entry points ``audit_findings`` and ``proof_steps``; the computations live in ``derivation_tools``, ``exact_instances``,
``step_rows_lemma43_to_prop47``, ``step_rows_prop48_thm34``, ``prop48_norm_facts``, ``lemma45_prop47_findings``,
``prop48_findings``, ``stepsize_schedule_findings``, ``thm34_rates`` and ``lemma41_lemma61_findings``), ``proofs`` (the
inventory of displayed proof steps) and ``steps`` (the displays encoded for the step checks). Sympy only; nothing of
``repro``. Keep this file free of code: every run that imports one of the modules imports it."""
